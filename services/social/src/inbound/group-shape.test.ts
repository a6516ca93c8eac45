import {
  addressedGroup,
  isGroupChange,
  isGroupId,
  isGroupMembership,
  readAnswer,
  readGroup,
} from './group-shape';

const G = 'group:0123456789abcdef01234567@a.test';
const described = (extra: Record<string, unknown> = {}) => ({
  id: G,
  actorId: '@alice@a.test',
  name: 'Gardeners',
  to: '@public',
  rsvpPolicy: 'open',
  ...extra,
});

describe('isGroupId', () => {
  test.each([
    [G, true],
    ['group:0123456789abcdef01234567@a.test:8080', true],
    ['circle:0123456789abcdef01234567@a.test', false],
    ['group:xyz@a.test', false],
    [{ $ne: null }, false],
    [undefined, false],
  ])('%p → %p', (v, ok) => expect(isGroupId(v)).toBe(ok));
});

describe('readGroup', () => {
  test('the group as described, with bounded text', () => {
    expect(readGroup(described({ description: 'd'.repeat(6000), icon: 'https://a.test/g.svg' }))).toEqual({
      ...described(),
      description: 'd'.repeat(5000),
      icon: 'https://a.test/g.svg',
    });
  });
  test('an unknown policy reads as needing approval; a non-http icon is dropped; a missing name is the id', () => {
    expect(readGroup(described({ rsvpPolicy: 'anything', icon: 'javascript:alert(1)', name: 7 }))).toEqual({
      ...described(),
      rsvpPolicy: 'approvalOnly',
      name: G,
    });
  });
  test.each([
    ['not an object', G],
    ['no id', described({ id: undefined })],
    ['a circle id', described({ id: 'circle:0123456789abcdef01234567@a.test' })],
    ['no actorId', described({ actorId: undefined })],
  ])('refuses %s', (_what, v) => expect(readGroup(v)).toBeUndefined());
});

describe('readAnswer', () => {
  test('the Join an Accept answers', () => {
    expect(readAnswer({ object: { type: 'Join', actor: '@bob@b.test', object: G } })).toEqual({
      memberId: '@bob@b.test',
      groupId: G,
    });
  });
  test('anything but a Join says nothing', () => {
    expect(readAnswer({ object: { type: 'Follow', actor: '@bob@b.test', object: G } })).toEqual({});
    expect(readAnswer({ object: G })).toEqual({});
  });
});

describe('isGroupChange', () => {
  test('an Update or Delete of the group itself', () => {
    expect(isGroupChange({ object: G })).toBe(true);
    expect(isGroupChange({ object: described({ type: 'Group' }) })).toBe(true);
    expect(isGroupChange({ object: 'post:0123456789abcdef01234567@a.test' })).toBe(false);
  });
});

describe('addressedGroup and isGroupMembership', () => {
  test('the group in `to` of the activity or the object', () => {
    expect(addressedGroup({ to: [G] }, {})).toBe(G);
    expect(addressedGroup({}, { to: G })).toBe(G);
    expect(addressedGroup({ to: ['@public'] }, { to: ['circle:1@a.test'] })).toBeUndefined();
  });
  test('an Add or Remove carrying a group is a group membership', () => {
    expect(isGroupMembership({ target: { id: 'circle:1@a.test', group: described() } })).toBe(true);
    expect(isGroupMembership({ target: { id: 'circle:1@a.test' } })).toBe(false);
    expect(isGroupMembership({ target: 'circle:1@a.test' })).toBe(false);
  });
});
