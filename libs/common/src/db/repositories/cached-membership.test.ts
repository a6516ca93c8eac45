/**
 * The revision rule of cached remote circles: a member's state moves only to a newer revision of
 * the origin's circle, whatever order the messages arrive in. Expectations written out by hand.
 */
import { applySnapshot, cachedCircle } from './cached-membership';

const NOW = new Date('2026-01-01T00:00:00Z');
const BOB = '@bob@here.test';
const CAROL = '@carol@here.test';
const SERVER = '@here.test';
const none = { members: [], departed: [] };

const ids = (r: ReturnType<typeof applySnapshot>) => r?.members.map((m) => m.id).sort();

test('an Add makes the member a member as of its revision', () => {
  const r = applySnapshot(none, { rev: 3, present: [BOB], scope: 'all' }, NOW);
  expect(r).toMatchObject({ added: [BOB], removed: [] });
  expect(r?.members).toEqual([{ id: BOB, type: 'Person', addedAt: NOW, rev: 3 }]);
});

test('a newer Remove takes the member out; the older Add arriving after it does not re-add', () => {
  const added = applySnapshot(none, { rev: 3, present: [BOB], scope: 'all' }, NOW)!;
  const removed = applySnapshot(added, { rev: 5, present: [], scope: 'all' }, NOW)!;
  expect(removed).toMatchObject({ members: [], departed: [{ id: BOB, rev: 5 }], removed: [BOB] });
  expect(applySnapshot(removed, { rev: 3, present: [BOB], scope: 'all' }, NOW)).toBeNull();
  expect(applySnapshot(removed, { rev: 4, present: [BOB], scope: 'all' }, NOW)).toBeNull();
  // Added again later on the origin: a newer revision.
  expect(ids(applySnapshot(removed, { rev: 6, present: [BOB], scope: 'all' }, NOW))).toEqual([BOB]);
});

test('the same message twice changes nothing the second time', () => {
  const once = applySnapshot(none, { rev: 2, present: [BOB, SERVER], scope: 'all' }, NOW)!;
  expect(once.members.map((m) => [m.id, m.type])).toEqual([
    [BOB, 'Person'],
    [SERVER, 'Service'],
  ]);
  expect(applySnapshot(once, { rev: 2, present: [BOB, SERVER], scope: 'all' }, NOW)).toBeNull();
});

test('a push speaks for every member here: one it does not name has left', () => {
  const both = applySnapshot(none, { rev: 2, present: [BOB, CAROL], scope: 'all' }, NOW)!;
  const r = applySnapshot(both, { rev: 4, present: [CAROL], scope: 'all' }, NOW)!;
  expect(r).toMatchObject({ added: [], removed: [BOB] });
  expect(ids(r)).toEqual([CAROL]);
});

test('a pull speaks only for the ids it asked about', () => {
  const both = applySnapshot(none, { rev: 2, present: [BOB, CAROL], scope: 'all' }, NOW)!;
  const r = applySnapshot(both, { rev: 4, present: [], scope: [BOB] }, NOW)!;
  expect(r).toMatchObject({ removed: [BOB] });
  expect(ids(r)).toEqual([CAROL]);
});

test('an older full message after a newer one adds no one: the newer one said who was in', () => {
  const bob = applySnapshot(none, { rev: 9, present: [BOB], scope: 'all' }, NOW)!;
  // Carol was never seen here, but as of 9 she was no member; 7 is older.
  expect(applySnapshot(bob, { rev: 7, present: [CAROL], scope: 'all' }, NOW)).toBeNull();
  expect(applySnapshot(bob, { rev: 7, present: [CAROL], scope: [CAROL] }, NOW)).toBeNull();
  // A newer one may add her.
  expect(ids(applySnapshot(bob, { rev: 10, present: [BOB, CAROL], scope: 'all' }, NOW))).toEqual(
    [BOB, CAROL].sort(),
  );
});

test('a pull (scoped) about a member known at a newer revision keeps that member', () => {
  const bob = applySnapshot(none, { rev: 9, present: [BOB], scope: [BOB] }, NOW)!;
  const r = applySnapshot(bob, { rev: 7, present: [CAROL], scope: [CAROL] }, NOW)!;
  expect(r).toMatchObject({ added: [CAROL], removed: [] });
  expect(ids(r)).toEqual([BOB, CAROL].sort());
});

test('racing full messages in any order end in the newest state', () => {
  const revs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  for (let trial = 0; trial < 50; trial++) {
    const order = [...revs].sort(() => Math.random() - 0.5);
    let state: Parameters<typeof applySnapshot>[0] = none;
    for (const rev of order) {
      state = applySnapshot(state, { rev, present: rev % 2 ? [CAROL] : [BOB], scope: 'all' }, NOW) ?? state;
    }
    expect(state.members?.map((m) => m.id)).toEqual([BOB]);
  }
});

test('a cached circle starts empty, owned by its remote owner, readable by no one but members', () => {
  const c = cachedCircle(
    {
      id: 'circle:abc@there.test',
      actorId: '@alice@there.test',
      name: 'Friends',
      originDomain: 'there.test',
    },
    NOW,
  );
  expect(c).toMatchObject({
    id: 'circle:abc@there.test',
    actorId: '@alice@there.test',
    originDomain: 'there.test',
    to: '',
    members: [],
    memberCount: 0,
    type: 'Circle',
  });
});
