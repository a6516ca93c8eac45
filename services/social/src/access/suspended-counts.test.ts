import { circleShare, counted, groupShare, tierShare, type SuspendedShare } from './suspended-counts';

const share: SuspendedShare = {
  tiers: new Map([
    [
      'public',
      new Map([
        ['Note', 2],
        ['Article', 1],
      ]),
    ],
    ['server', new Map([['Note', 1]])],
  ]),
  groups: new Map([['group:g@a.test', new Map([['Event', 1]])]]),
  circles: new Map([
    [
      'circle:c@a.test',
      new Map([
        ['public', 2],
        ['server', 1],
      ]),
    ],
  ]),
  replies: new Map([['post:p@a.test', 2]]),
  reacts: new Map([
    [
      'post:p@a.test',
      new Map([
        ['🔦', 1],
        ['⚓', 2],
      ]),
    ],
  ]),
};

test("a total loses the suspended accounts' posts of its tiers or group, of the asked types", () => {
  expect(tierShare(share, ['public'])).toBe(3);
  expect(tierShare(share, ['public', 'server'])).toBe(4);
  expect(tierShare(share, ['public', 'server'], ['Note', 'Note'])).toBe(3);
  expect(tierShare(share, ['server'], ['Article'])).toBe(0);
  expect(groupShare(share, 'group:g@a.test')).toBe(1);
  expect(groupShare(share, 'group:g@a.test', ['Note'])).toBe(0);
  expect(groupShare(share, 'group:other@a.test')).toBe(0);
});

test("a timeline's total loses the suspended accounts' posts in it of the tiers the viewer counts", () => {
  expect(circleShare(share, 'circle:c@a.test', false)).toBe(2);
  expect(circleShare(share, 'circle:c@a.test', true)).toBe(3);
  expect(circleShare(share, 'circle:other@a.test', true)).toBe(0);
});

test("a post's counters lose the suspended accounts' replies and reactions; an emoji left with none leaves the summary", () => {
  const post = {
    id: 'post:p@a.test',
    replyCount: 5,
    reactCount: 4,
    reactSummary: { '⚓': 2, '🔦': 1, '🎉': 1 },
  };
  expect(counted(share, post)).toEqual({
    id: 'post:p@a.test',
    replyCount: 3,
    reactCount: 1,
    reactSummary: { '🎉': 1 },
  });
  // The stored post is not changed, and one they did not touch is given back as it is.
  expect(post.replyCount).toBe(5);
  const other = { id: 'post:q@a.test', replyCount: 1, reactCount: 0, reactSummary: {} };
  expect(counted(share, other)).toBe(other);
  // Never below zero, even when a counter lags behind.
  expect(counted(share, { id: 'post:p@a.test', replyCount: 1, reactCount: 0 })).toMatchObject({
    replyCount: 0,
    reactCount: 0,
  });
});
