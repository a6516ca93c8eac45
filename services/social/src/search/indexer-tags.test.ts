import { entryFor } from './indexer';

test('a post is found by the #hashtags written in its body as well as by its tags', () => {
  const entry = entryFor('Post', {
    id: 'post:0123456789abcdef01234567@social.test',
    to: '@public',
    actorId: '@alice@social.test',
    source: { content: 'Planting day in the #garden, see `#notatag`' },
    tags: ['Photography'],
  });
  expect(entry.terms).toEqual(expect.arrayContaining(['#ga', '#garden', '#photography']));
  expect(entry.terms).not.toContain('#notatag');
  // The word itself is found without the `#` too, as before.
  expect(entry.terms).toContain('garden');
});
