/**
 * The two-server proof's setting (test/federation/two-servers*.test.ts): two compiled standalone
 * servers A and B (two-compiled.ts) that pull each other every second, the two directions to run
 * every row in, and "sides" (an author on the origin, a follower of theirs on the holder) with the
 * calls the rows make: what a server stored, a public post once copied, circles and groups of the
 * author's, and the proof that the holder stored nothing of a post. State is per test file (Jest
 * loads this module afresh for each file).
 */
import { randomUUID } from 'node:crypto';
import { waitFor } from './standalone';
import { act, register, startPair, type Pair, type Peer } from './two-compiled';

const A = 'a.test';
const B = 'b.test';
let pair: Pair | undefined;

/** Starts A and B (call in a beforeAll with a long timeout: both are compiled processes). */
export async function startPollingPair(): Promise<Pair> {
  // Each pulls the other every second as well (its users follow the other's): what must not
  // arrive must come neither by push nor by pull.
  pair = await startPair([A, B], { FEDERATION_POLL_SECONDS: '1' });
  return pair;
}
export async function closePollingPair(): Promise<void> {
  await pair?.close();
}
const started = (): Pair => {
  if (!pair) throw new Error('startPollingPair() has not run');
  return pair;
};
/** A → B and B → A, for describe.each: each gives [origin, holder]. */
export const BOTH_WAYS: Array<[string, () => readonly [Peer, Peer]]> = [
  ['A → B', () => [started().a, started().b] as const],
  ['B → A', () => [started().b, started().a] as const],
];

export type Stored = { _id: string; id?: string; deletedAt?: unknown } & Record<string, unknown>;

/** The stored document of `id` in a collection of `peer` (by `_id` or public `id`), if any. */
export async function storedOn(peer: Peer, collection: string, id: string): Promise<Stored | undefined> {
  return (await peer.stored<Stored>(collection)).find((d) => d._id === id || d.id === id);
}

export async function until<T>(
  what: string,
  read: () => Promise<T | undefined | false>,
  ms = 30_000,
): Promise<T> {
  let last: T | undefined | false;
  try {
    await waitFor(async () => !!(last = await read()), ms);
  } catch {
    throw new Error(`${what}: not within ${ms} ms`);
  }
  return last as T;
}

/** An author on `origin` and a follower on `holder` who follows them (recorded on `origin`). */
export interface Sides {
  origin: Peer;
  holder: Peer;
  author: { token: string; id: string };
  follower: { token: string; id: string };
}

export async function sides(origin: Peer, holder: Peer): Promise<Sides> {
  const tag = randomUUID().slice(0, 8);
  const author = await register(origin, `w${tag}`);
  const follower = await register(holder, `f${tag}`);
  await act(holder, follower.token, { type: 'Follow', target: author.id });
  await waitFor(() => origin.stores.followers.isFollower(author.id, follower.id), 30_000);
  return { origin, holder, author, follower };
}

export async function publicPost(s: Sides, content: string): Promise<string> {
  return act(s.origin, s.author.token, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content },
  });
}

/** A public post of the author's, once its copy is stored on the holder. */
export async function copied(s: Sides, content = `public ${randomUUID()}`): Promise<string> {
  const id = await publicPost(s, content);
  await until(`the copy of ${id} on ${s.holder.domain}`, () => storedOn(s.holder, 'posts', id));
  return id;
}

/** A circle of the author's on the origin holding `members` (ids of any server). */
export async function circleOf(s: Sides, members: string[]): Promise<string> {
  const circle = await act(s.origin, s.author.token, {
    type: 'Create',
    objectType: 'Circle',
    to: s.author.id,
    object: { name: `circle ${randomUUID().slice(0, 8)}` },
  });
  for (const m of members) await act(s.origin, s.author.token, { type: 'Add', object: m, target: circle });
  return circle;
}

/** The members of a circle as `peer` stored it (its own or its copy of another server's). */
export async function membersOn(peer: Peer, circle: string): Promise<string[]> {
  return ((await peer.stores.circles.byId(circle))?.members ?? []).map((m) => m.id);
}

/**
 * Asserts the holder stored nothing of `id` (no post, no activity naming it, pushed or pulled),
 * once a public marker the author wrote after it has been stored there (anything wrongly pushed
 * before it would have been too) and the holder has pulled the origin since `id` was written.
 */
export async function storedNothingOf(s: Sides, id: string): Promise<void> {
  const written = Date.now();
  await copied(s, `marker ${randomUUID()}`);
  const pulled = async () =>
    (await s.holder.stores.remoteServers.byDomain(s.origin.domain))?.lastPolledAt?.getTime() ?? 0;
  await until('a pull after the post', async () => (await pulled()) > written);
  expect(await storedOn(s.holder, 'posts', id)).toBeUndefined();
  const log = await s.holder.stored<Stored>('activities');
  expect(log.filter((r) => typeof r.raw === 'string' && r.raw.includes(id))).toEqual([]);
}

export const notDeleted = (d: Stored | undefined) => (d && !d.deletedAt ? d : undefined);

/** A group of the author's on the origin (`open` or `approvalOnly`). */
export async function groupOf(s: Sides, rsvpPolicy: 'open' | 'approvalOnly' = 'open'): Promise<string> {
  return act(s.origin, s.author.token, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: `group ${randomUUID().slice(0, 8)}`, rsvpPolicy },
  });
}

/** The ids a group's members circle holds on `peer` (its own group, or its cached copy). */
export async function groupMembersOn(peer: Peer, groupId: string): Promise<string[]> {
  const circle = (await peer.stores.groups.byId(groupId))?.circles?.members;
  return circle ? membersOn(peer, circle) : [];
}

/** The follower joins the group from the other server; both servers record the membership. */
export async function joined(s: Sides, groupId: string): Promise<void> {
  await act(s.holder, s.follower.token, { type: 'Join', target: groupId });
  await until('the member on the group’s server', async () =>
    (await groupMembersOn(s.origin, groupId)).includes(s.follower.id),
  );
  await until('the cached membership', async () =>
    (await groupMembersOn(s.holder, groupId)).includes(s.follower.id),
  );
}
