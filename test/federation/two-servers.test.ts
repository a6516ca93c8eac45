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
 * This file: every activity; two-servers-audiences.test.ts has every audience (the setting and
 * the calls both make are test/harness/federation-sides.ts).
 */
import { randomUUID } from 'node:crypto';
import { act } from '../harness/two-compiled';
import {
  BOTH_WAYS,
  circleOf,
  closePollingPair,
  copied,
  groupMembersOn,
  groupOf,
  joined,
  membersOn,
  notDeleted,
  sides,
  startPollingPair,
  storedNothingOf,
  storedOn,
  until,
  type Sides,
  type Stored,
} from '../harness/federation-sides';

beforeAll(async () => {
  await startPollingPair();
}, 180_000);
afterAll(closePollingPair);

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

describe.each(BOTH_WAYS)('%s', (_direction, peers) => {
  let s: Sides;
  beforeAll(async () => {
    const [origin, holder] = peers();
    s = await sides(origin, holder);
  });

  test.each(ACTIVITIES)('%s', async (_name, run) => run(s));
});
