import { mentionedUsers, MAX_MENTIONS } from './mentions';
import { activityIdOf } from './create';
import { hrefOf, kindOf, userHref } from './objects';

describe('mentionedUsers', () => {
  const d = 'social.test';
  test('finds local handles, once each, in order', () => {
    expect(mentionedUsers('hi @Bob@social.test and @alice@social.test, @bob@social.test again', d)).toEqual([
      '@bob@social.test',
      '@alice@social.test',
    ]);
  });
  test('a handle at the end of a sentence or in a markdown link counts', () => {
    expect(mentionedUsers('thanks @bob@social.test.', d)).toEqual(['@bob@social.test']);
    expect(mentionedUsers('[@bob@social.test](https://x)', d)).toEqual(['@bob@social.test']);
  });
  test('remote handles, e-mail-like text, paths and longer domains do not', () => {
    expect(mentionedUsers('@bob@elsewhere.test me@bob@social.test /u/@bob@social.test', d)).toEqual([]);
    expect(mentionedUsers('@bob@social.test.evil @bob@social.tester', d)).toEqual([]);
  });
  test('the domain is matched literally, not as a pattern', () => {
    expect(mentionedUsers('@bob@socialxtest', d)).toEqual([]);
  });
  test('at most MAX_MENTIONS handles', () => {
    const text = Array.from({ length: 30 }, (_, i) => `@user${i}@social.test`).join(' ');
    expect(mentionedUsers(text, d)).toHaveLength(MAX_MENTIONS);
  });
});

describe('ids and hrefs', () => {
  test('activityIdOf reads the pipeline event id `<activity>#<n>` only', () => {
    expect(activityIdOf('activity:0123456789abcdef01234567@social.test#1')).toBe(
      'activity:0123456789abcdef01234567@social.test',
    );
    expect(activityIdOf('user.registered:@a@social.test')).toBeUndefined();
    expect(activityIdOf('random-uuid')).toBeUndefined();
  });
  test('hrefs are absolute URLs of the object pages', () => {
    const id = 'reply:0123456789abcdef01234567@social.test';
    expect(kindOf(id)).toBe('reply');
    expect(kindOf('@bob@social.test')).toBeNull();
    expect(kindOf('flag:1@social.test')).toBeNull();
    expect(hrefOf('https://social.test', 'reply', id)).toBe(`https://social.test/posts/${id}`);
    expect(hrefOf('https://social.test', 'group', 'group:1@social.test')).toBe(
      'https://social.test/groups/group:1@social.test',
    );
    expect(userHref('https://social.test', '@bob@social.test')).toBe(
      'https://social.test/users/%40bob%40social.test',
    );
  });
});
