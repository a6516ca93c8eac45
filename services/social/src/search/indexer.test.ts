import { kindOfId } from './indexer';

test('the kind of an id comes from own keys only: prototype names are no kind', () => {
  expect(kindOfId('post:0123456789abcdef01234567@social.test')).toBe('Post');
  expect(kindOfId('@alice@social.test')).toBe('User');
  for (const kind of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])
    expect([kind, kindOfId(`${kind}:0123456789abcdef01234567@social.test`)]).toEqual([kind, null]);
});
