/**
 * Issue 23's two-server proof, with real processes: two compiled standalone servers A and B
 * (test/harness/two-compiled.ts: their own SQLite files, domains and keys; real signatures),
 * every activity and every audience as rows of two tables, each run both ways (A → B and B → A).
 * Every assertion reads what the receiving server **stored** (its SQLite file through the engine
 * port: posts, replies, reacts, flags, followers, the activity log), and a server that must not
 * receive something is shown to hold nothing of it, after a public marker written later by the
 * same author has arrived along the same path.
 * Groups: a group of the author's on the origin, joined (open, or approved by its admin) and
 * left by the follower from the other server; group posts both ways (the origin's to the member's
 * server, the member's to the group's server); a group without members there sends nothing.
 */
import { randomUUID } from 'node:crypto';
import { waitFor } from '../harness/standalone';
import { act, register, startPair, type Pair, type Peer } from '../harness/two-compiled';

const A = 'a.test';
const B = 'b.test';
let pair: Pair;

beforeAll(async () => {
  // Each pulls the other every second as well (its users follow the other's): what must not
  // arrive must come neither by push nor by pull.
  pair = await startPair([A, B], { FEDERATION_POLL_SECONDS: '1' });
}, 180_000);
afterAll(async () => {
  await pair?.close();
});

type Stored = { _id: string; id?: string; deletedAt?: unknown } & Record<string, unknown>;

/** The stored document of `id` in a collection of `peer` (by `_id` or public `id`), if any. */
async function storedOn(peer: Peer, collection: string, id: string): Promise<Stored | undefined> {
  return (await peer.stored<Stored>(collection)).find((d) => d._id === id || d.id === id);
}

async function until<T>(what: string, read: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  let last: T | undefined | false;
  try {
    await waitFor(async () => !!(last = await read()), ms);
  } catch {
    throw new Error(`${what}: not within ${ms} ms`);
  }
  return last as T;
}

/** An author on `origin` and a follower on `holder` who follows them (recorded on `origin`). */
interface Sides {
  origin: Peer;
  holder: Peer;
  author: { token: string; id: string };
  follower: { token: string; id: string };
}

async function sides(origin: Peer, holder: Peer): Promise<Sides> {
  const tag = randomUUID().slice(0, 8);
  const author = await register(origin, `w${tag}`);
  const follower = await register(holder, `f${tag}`);
  await act(holder, follower.token, { type: 'Follow', target: author.id });
  await waitFor(() => origin.stores.followers.isFollower(author.id, follower.id), 30_000);
  return { origin, holder, author, follower };
}

async function publicPost(s: Sides, content: string): Promise<string> {
  return act(s.origin, s.author.token, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content },
  });
}

/** A public post of the author's, once its copy is stored on the holder. */
async function copied(s: Sides, content = `public ${randomUUID()}`): Promise<string> {
  const id = await publicPost(s, content);
  await until(`the copy of ${id} on ${s.holder.domain}`, () => storedOn(s.holder, 'posts', id));
  return id;
}

/** A circle of the author's on the origin holding `members` (ids of any server). */
async function circleOf(s: Sides, members: string[]): Promise<string> {
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
async function membersOn(peer: Peer, circle: string): Promise<string[]> {
  return ((await peer.stores.circles.byId(circle))?.members ?? []).map((m) => m.id);
}

/**
 * Asserts the holder stored nothing of `id` (no post, no activity naming it, pushed or pulled),
 * once a public marker the author wrote after it has been stored there (anything wrongly pushed
 * before it would have been too) and the holder has pulled the origin since `id` was written.
 */
async function storedNothingOf(s: Sides, id: string): Promise<void> {
  const written = Date.now();
  await copied(s, `marker ${randomUUID()}`);
  const pulled = async () =>
    (await s.holder.stores.remoteServers.byDomain(s.origin.domain))?.lastPolledAt?.getTime() ?? 0;
  await until('a pull after the post', async () => (await pulled()) > written);
  expect(await storedOn(s.holder, 'posts', id)).toBeUndefined();
  const log = await s.holder.stored<Stored>('activities');
  expect(log.filter((r) => typeof r.raw === 'string' && r.raw.includes(id))).toEqual([]);
}

const notDeleted = (d: Stored | undefined) => (d && !d.deletedAt ? d : undefined);

/** A group of the author's on the origin (`open` or `approvalOnly`). */
async function groupOf(s: Sides, rsvpPolicy: 'open' | 'approvalOnly' = 'open'): Promise<string> {
  return act(s.origin, s.author.token, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: `group ${randomUUID().slice(0, 8)}`, rsvpPolicy },
  });
}

/** The ids a group's members circle holds on `peer` (its own group, or its cached copy). */
async function groupMembersOn(peer: Peer, groupId: string): Promise<string[]> {
  const circle = (await peer.stores.groups.byId(groupId))?.circles?.members;
  return circle ? membersOn(peer, circle) : [];
}

/** The follower joins the group from the other server; both servers record the membership. */
async function joined(s: Sides, groupId: string): Promise<void> {
  await act(s.holder, s.follower.token, { type: 'Join', target: groupId });
  await until('the member on the group’s server', async () =>
    (await groupMembersOn(s.origin, groupId)).includes(s.follower.id),
  );
  await until('the cached membership', async () =>
    (await groupMembersOn(s.holder, groupId)).includes(s.follower.id),
  );
}

/** Every activity: what the origin side does, and what the other server must then have stored. */
const ACTIVITIES: Array<[string, (s: Sides) => Promise<void>]> = [
  [
    'Follow: the follower is recorded on the author’s server',
    async (s) => {
      expect(await s.origin.stores.followers.isFollower(s.author.id, s.follower.id)).toBe(true);
    },
  ],
  [
    'Create of a public post: a copy on the follower’s server, in the follower’s timeline',
    async (s) => {
      const id = await copied(s);
      expect(await storedOn(s.holder, 'posts', id)).toMatchObject({
        actorId: s.author.id,
        originDomain: s.origin.domain,
      });
      const me = await s.holder.call<{ user: { following: string } }>('GET', '/auth/me', {
        token: s.follower.token,
      });
      const timeline = await s.holder.call<{ orderedItems: Array<{ id: string }> }>(
        'GET',
        `/circles/${me.body.user.following}/posts`,
        { token: s.follower.token },
      );
      expect(timeline.body.orderedItems.filter((p) => p.id === id)).toHaveLength(1);
    },
  ],
  [
    'Update of a public post: the copy changes',
    async (s) => {
      const id = await copied(s);
      await act(s.origin, s.author.token, {
        type: 'Update',
        target: id,
        object: { content: 'edited at home' },
      });
      await until('the edit', async () =>
        String((await storedOn(s.holder, 'posts', id))?.body).includes('edited at home'),
      );
    },
  ],
  [
    'Delete of a public post: the copy is tombstoned',
    async (s) => {
      const id = await copied(s);
      await act(s.origin, s.author.token, { type: 'Delete', target: id });
      await until('the tombstone', async () => !!(await storedOn(s.holder, 'posts', id))?.deletedAt);
    },
  ],
  [
    'Reply by the author on their post: stored on the copy’s server',
    async (s) => {
      const id = await copied(s);
      const reply = await act(s.origin, s.author.token, {
        type: 'Reply',
        to: id,
        object: { content: 'me again' },
      });
      expect(await until('the reply', () => storedOn(s.holder, 'replies', reply))).toBeTruthy();
      await until(
        'the count on the copy',
        async () => (await storedOn(s.holder, 'posts', id))?.replyCount === 1,
      );
    },
  ],
  [
    'Reply from the copy: stored on the thread’s server, as from the replier’s server',
    async (s) => {
      const id = await copied(s);
      const reply = await act(s.holder, s.follower.token, {
        type: 'Reply',
        to: id,
        object: { content: 'hi!' },
      });
      const there = await until('the reply', () => storedOn(s.origin, 'replies', reply));
      expect(there).toMatchObject({ actorId: s.follower.id });
      // Counted once on each side: at once on the copy, on the thread's server when applied.
      await until(
        'the count on the thread',
        async () => (await storedOn(s.origin, 'posts', id))?.replyCount === 1,
      );
      expect((await storedOn(s.holder, 'posts', id))?.replyCount).toBe(1);
    },
  ],
  [
    'React and its removal from the copy: on the thread’s server, then gone',
    async (s) => {
      const id = await copied(s);
      await act(s.holder, s.follower.token, { type: 'React', to: id, object: { emoji: '🎉' } });
      const reacted = async () =>
        notDeleted(
          (await s.origin.stored<Stored>('reacts')).find(
            (r) => r.target === id && r.actorId === s.follower.id,
          ),
        );
      expect(await until('the reaction', reacted)).toMatchObject({ emoji: '🎉' });
      await act(s.holder, s.follower.token, { type: 'Undo', object: { type: 'React', to: id } });
      await until('the removal', async () => !(await reacted()));
    },
  ],
  [
    'Flag forwarded: a flag by the reporting server on the post’s server',
    async (s) => {
      const id = await copied(s);
      await act(s.holder, s.follower.token, {
        type: 'Flag',
        target: id,
        object: { reason: 'spam', notes: 'forwarded' },
        forward: true,
      });
      const flag = await until('the flag', async () =>
        (await s.origin.stored<Stored>('flags')).find((f) => f.target === id),
      );
      expect(flag).toMatchObject({ actorId: `@${s.holder.domain}`, status: 'open' });
    },
  ],
  [
    'Add of a remote member: the member’s server holds the circle with them',
    async (s) => {
      const circle = await circleOf(s, [s.follower.id]);
      await until('the membership', async () => (await membersOn(s.holder, circle)).includes(s.follower.id));
    },
  ],
  [
    'Remove of a remote member: gone from the copy of the circle, and a later post to it never arrives',
    async (s) => {
      const circle = await circleOf(s, [s.follower.id]);
      await until('the membership', async () => (await membersOn(s.holder, circle)).includes(s.follower.id));
      await act(s.origin, s.author.token, { type: 'Remove', object: s.follower.id, target: circle });
      await until('the removal', async () => !(await membersOn(s.holder, circle)).includes(s.follower.id));
      const after = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Post',
        to: circle,
        object: { content: 'after the removal' },
      });
      await storedNothingOf(s, after);
    },
  ],
  [
    'Update of a profile: the copies of the author’s posts take the new name',
    async (s) => {
      const t = await sides(s.origin, s.holder);
      const id = await copied(t);
      const name = `Renamed ${randomUUID().slice(0, 8)}`;
      await act(t.origin, t.author.token, {
        type: 'Update',
        target: t.author.id,
        object: { profile: { name } },
      });
      await until('the refreshed copy', async () =>
        JSON.stringify(await storedOn(t.holder, 'posts', id)).includes(name),
      );
    },
  ],
  [
    'Unfollow: the follower is no longer recorded',
    async (s) => {
      const t = await sides(s.origin, s.holder);
      await act(t.holder, t.follower.token, { type: 'Unfollow', object: t.author.id });
      await until(
        'the unfollow',
        async () => !(await t.origin.stores.followers.isFollower(t.author.id, t.follower.id)),
      );
    },
  ],
  [
    'Join of an open group: the member on both servers; Leave: gone from both',
    async (s) => {
      const groupId = await groupOf(s);
      await joined(s, groupId);
      expect(await storedOn(s.holder, 'groups', groupId)).toMatchObject({ originDomain: s.origin.domain });
      await act(s.holder, s.follower.token, { type: 'Leave', target: groupId });
      await until(
        'the leave on the group’s server',
        async () => !(await groupMembersOn(s.origin, groupId)).includes(s.follower.id),
      );
      await until(
        'the leave on the member’s server',
        async () => !(await groupMembersOn(s.holder, groupId)).includes(s.follower.id),
      );
    },
  ],
  [
    'Join of an approval group: pending until the admin adds them, then a member on both',
    async (s) => {
      const groupId = await groupOf(s, 'approvalOnly');
      await act(s.holder, s.follower.token, { type: 'Join', target: groupId });
      const pending = async () => {
        const circle = (await s.origin.stores.groups.byId(groupId))?.circles?.pending;
        return circle ? (await membersOn(s.origin, circle)).includes(s.follower.id) : false;
      };
      await until('the pending request', pending);
      expect(await groupMembersOn(s.holder, groupId)).not.toContain(s.follower.id);
      await act(s.origin, s.author.token, { type: 'Add', to: groupId, object: s.follower.id });
      await until('the approved membership', async () =>
        (await groupMembersOn(s.holder, groupId)).includes(s.follower.id),
      );
    },
  ],
  [
    'Group posts: the origin’s reaches the member’s server; the member’s reaches the group’s server',
    async (s) => {
      const groupId = await groupOf(s);
      await joined(s, groupId);
      const fromOrigin = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Post',
        to: groupId,
        object: { content: 'to the group, from home' },
      });
      expect(
        await until('the group post on the member’s server', () => storedOn(s.holder, 'posts', fromOrigin)),
      ).toMatchObject({ to: groupId });
      const fromMember = await act(s.holder, s.follower.token, {
        type: 'Create',
        objectType: 'Post',
        to: groupId,
        object: { content: 'to the group, from afar' },
      });
      expect(
        await until('the member’s post on the group’s server', () => storedOn(s.origin, 'posts', fromMember)),
      ).toMatchObject({ to: groupId, actorId: s.follower.id });
    },
  ],
  [
    'Account deletion: the copies of the account’s posts are withdrawn',
    async (s) => {
      const t = await sides(s.origin, s.holder);
      const id = await copied(t);
      await act(t.origin, t.author.token, { type: 'Delete', target: t.author.id });
      await until('the withdrawal', async () => !notDeleted(await storedOn(t.holder, 'posts', id)));
    },
  ],
];

/**
 * Every audience: whether a post to it reaches a server whose only tie to the author is a
 * follower. `to` gets the sides (a circle is created on the origin).
 */
interface AudienceRow {
  name: string;
  to: (s: Sides) => Promise<string>;
  reaches: boolean;
}
const AUDIENCES: AudienceRow[] = [
  { name: 'public', to: () => Promise.resolve('@public'), reaches: true },
  { name: 'a circle holding the follower', to: (s) => circleOf(s, [s.follower.id]), reaches: true },
  {
    name: 'a circle holding the follower’s server (`@<holder>`)',
    to: (s) => circleOf(s, [`@${s.holder.domain}`]),
    reaches: true,
  },
  {
    name: 'the author’s server only (`@<origin>`)',
    to: (s) => Promise.resolve(`@${s.origin.domain}`),
    reaches: false,
  },
  {
    name: 'a circle holding only a local member',
    to: async (s) => {
      const local = await register(s.origin, `l${randomUUID().slice(0, 8)}`);
      const circle = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Circle',
        to: s.author.id,
        object: { name: 'local friends' },
      });
      await act(s.origin, s.author.token, { type: 'Add', object: local.id, target: circle });
      return circle;
    },
    reaches: false,
  },
  {
    name: 'a group without members on the other server',
    to: (s) => groupOf(s),
    reaches: false,
  },
];

describe.each([
  ['A → B', () => [pair.a, pair.b] as const],
  ['B → A', () => [pair.b, pair.a] as const],
])('%s', (_direction, peers) => {
  let s: Sides;
  beforeAll(async () => {
    const [origin, holder] = peers();
    s = await sides(origin, holder);
  });

  test.each(ACTIVITIES)('%s', async (_name, run) => run(s));

  test.each(AUDIENCES)(
    'a post to $name reaches the other server: $reaches',
    async ({ to: audience, reaches }) => {
      const to = await audience(s);
      const id = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Post',
        to,
        object: { content: `to ${to}` },
      });
      // A public marker written after it by the same author, along the same path: once it is
      // stored, anything wrongly sent before it would have been too.
      await copied(s, `marker ${randomUUID()}`);
      if (reaches) {
        expect(await until('the copy', () => storedOn(s.holder, 'posts', id))).toBeTruthy();
        return;
      }
      expect(await storedOn(s.holder, 'posts', id)).toBeUndefined();
      const log = await s.holder.stored<Stored>('activities');
      expect(log.filter((r) => typeof r.raw === 'string' && r.raw.includes(id))).toEqual([]);
    },
  );
});
