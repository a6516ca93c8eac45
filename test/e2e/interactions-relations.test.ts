/**
 * The interactions story of the social issue, part 2: Flag, Block/Mute, Follow/Unfollow, Undo,
 * Delete of accounts, folders and groups, admin moderation, and operator-injection payloads. The
 * users and alice's circle come from test/harness/interactions.ts (as in interactions.test.ts).
 */
import { ADMIN, waitFor, type client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { bootInteractions, closeInteractions, send, timeline, type Body } from '../harness/interactions';

type Me = { following: string; blocked: string; muted: string };

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;
let me: Record<string, Me>;
let circleId: string;
let publicPost: string;
let circlePost: string;

const memberIds = (body: Body) => ((body.result?.members ?? []) as Array<{ id: string }>).map((m) => m.id);

beforeAll(async () => {
  // alice's circle with bob in it comes with the shared world.
  ({ server, api, alice, bob, carol, circleId } = await bootInteractions());
  me = {};
  for (const a of [alice, bob, carol])
    me[a.id] = (await api.get<{ user: Me }>('/auth/me', { token: a.token })).body.user;
  publicPost = (
    await send(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Hello world' },
    })
  ).body.createdId!;
  circlePost = (
    await send(alice, { type: 'Create', objectType: 'Post', to: circleId, object: { content: 'Inner news' } })
  ).body.createdId!;
});
afterAll(closeInteractions);

describe('Follow / Unfollow', () => {
  test("Follow adds alice to bob's Following circle and backfills her posts", async () => {
    const follow = await send(bob, { type: 'Follow', object: alice.id });
    expect(follow.status).toBe(201);
    expect(follow.body.result).toMatchObject({ id: me[bob.id]!.following, changed: true });
    expect(memberIds(follow.body)).toContain(alice.id);
    expect(await timeline(bob, me[bob.id]!.following)).toEqual(
      expect.arrayContaining([publicPost, circlePost]),
    );
    // Following again changes nothing.
    expect((await send(bob, { type: 'Follow', object: { id: alice.id } })).body.result).toMatchObject({
      changed: false,
    });
  });

  test('Unfollow removes her and her posts; validation and self-follow', async () => {
    const unfollow = await send(bob, { type: 'Unfollow', object: alice.id });
    expect(unfollow.body.result).toMatchObject({ changed: true });
    expect(memberIds(unfollow.body)).not.toContain(alice.id);
    expect(await timeline(bob, me[bob.id]!.following)).not.toContain(publicPost);
    const self = await send(bob, { type: 'Follow', object: bob.id });
    expect(self.status).toBe(400);
    expect(self.body.error).toMatch(/^object: /);
    expect((await send(bob, { type: 'Follow', object: publicPost })).status).toBe(400);
    expect((await send(bob, { type: 'Follow', object: '@nobody@social.test' })).status).toBe(404);
    // Back to following for the block and mute stories.
    expect((await send(bob, { type: 'Follow', target: alice.id })).body.result).toMatchObject({
      changed: true,
    });
    expect((await send(carol, { type: 'Follow', object: alice.id })).status).toBe(201);
  });
});

describe('Block / Mute', () => {
  test("Block removes the author from the blocker's timelines until Unblock", async () => {
    const following = me[bob.id]!.following;
    expect(await timeline(bob, following)).toContain(publicPost);
    const block = await send(bob, { type: 'Block', target: alice.id });
    expect(block.status).toBe(201);
    expect(block.body.result).toMatchObject({ id: me[bob.id]!.blocked, changed: true });
    expect(memberIds(block.body)).toEqual([alice.id]);
    expect(await timeline(bob, following)).not.toContain(publicPost);
    expect((await send(bob, { type: 'Block', target: alice.id })).body.result).toMatchObject({
      changed: false,
    });
    // carol, who has not blocked alice, still sees her.
    expect(await timeline(carol, me[carol.id]!.following)).toContain(publicPost);
    const unblock = await send(bob, { type: 'Unblock', target: alice.id });
    expect(unblock.body.result).toMatchObject({ changed: true, memberCount: 0 });
    expect(await timeline(bob, following)).toContain(publicPost);
  });

  test('Mute hides the author the same way until Unmute', async () => {
    const following = me[carol.id]!.following;
    const mute = await send(carol, { type: 'Mute', target: alice.id });
    expect(mute.body.result).toMatchObject({ id: me[carol.id]!.muted, changed: true });
    expect(await timeline(carol, following)).not.toContain(publicPost);
    expect((await send(carol, { type: 'Unmute', target: alice.id })).body.result).toMatchObject({
      changed: true,
    });
    expect(await timeline(carol, following)).toContain(publicPost);
  });

  test('remote handles work; self, unknown local users and non-user ids do not', async () => {
    const remote = await send(bob, { type: 'Block', target: '@zed@remote.example' });
    expect(remote.status).toBe(201);
    expect(remote.body.result!.members).toEqual([
      expect.objectContaining({ id: '@zed@remote.example', server: '@remote.example' }),
    ]);
    expect((await send(bob, { type: 'Unblock', target: '@zed@remote.example' })).body.result).toMatchObject({
      changed: true,
      members: [],
    });
    const self = await send(bob, { type: 'Mute', target: bob.id });
    expect(self.status).toBe(400);
    expect(self.body.error).toMatch(/^target: /);
    expect((await send(bob, { type: 'Block', target: '@nobody@social.test' })).status).toBe(404);
    expect((await send(bob, { type: 'Block', target: circleId })).status).toBe(400);
    expect((await send(bob, { type: 'Block' })).status).toBe(400);
  });
});

describe('Flag', () => {
  let flagId: string;

  test("bob flags alice's post; the flag is stored open with a full minted id", async () => {
    const res = await send(bob, {
      type: 'Flag',
      target: publicPost,
      object: { reason: 'spam', notes: 'buy now' },
    });
    expect(res.status).toBe(201);
    flagId = res.body.createdId!;
    expect(flagId).toMatch(/^flag:[0-9a-f]{24}@social\.test$/);
    expect(res.body.result).toMatchObject({
      target: publicPost,
      targetType: 'Post',
      targetActorId: alice.id,
      actorId: bob.id,
      status: 'open',
      notes: 'buy now',
      reason: { code: 'spam', label: 'Spam' },
    });
  });

  test('the same open flag is returned, not duplicated; a label or {code, details} also works', async () => {
    const again = await send(bob, {
      type: 'Flag',
      target: publicPost,
      object: { reason: { label: 'SPAM' } },
    });
    expect(again.status).toBe(201);
    expect(again.body.createdId).toBe(flagId);
    expect(again.body.result).toMatchObject({ duplicated: true });
    const bobs = await server.services[0]!.runtime!.repos.flags.pageForAdmin(
      { actorId: bob.id },
      { skip: 0, limit: 100 },
    );
    expect(bobs.items.filter((f) => f.target === publicPost)).toHaveLength(1);
    const other = await send(bob, {
      type: 'Flag',
      target: publicPost,
      object: { reason: { code: 'harassment', details: 'again and again' } },
    });
    expect(other.body.createdId).not.toBe(flagId);
    expect(other.body.result).toMatchObject({ reason: { code: 'harassment', details: 'again and again' } });
    const user = await send(carol, { type: 'Flag', target: alice.id, object: { reason: 'Impersonation' } });
    expect(user.body.result).toMatchObject({
      targetType: 'User',
      targetActorId: alice.id,
      reason: { code: 'impersonation' },
    });
  });

  test('unknown and invisible targets 404 alike, invalid reason 400', async () => {
    expect(
      (
        await send(bob, {
          type: 'Flag',
          target: 'post:000000000000000000000000@social.test',
          object: { reason: 'spam' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await send(bob, { type: 'Flag', target: '@nobody@social.test', object: { reason: 'spam' } })).status,
    ).toBe(404);
    expect((await send(carol, { type: 'Flag', target: circlePost, object: { reason: 'spam' } })).status).toBe(
      404,
    );
    const bad = await send(bob, { type: 'Flag', target: publicPost, object: { reason: 'boring' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^object\.reason: /);
    expect((await send(bob, { type: 'Flag', target: publicPost, object: {} })).status).toBe(400);
  });
});

describe('Undo', () => {
  test('Undo of a React clears it, inline or by activity id', async () => {
    const react = await send(bob, { type: 'React', to: publicPost, object: { emoji: '👍' } });
    expect(react.body.result).toMatchObject({ status: 'reacted', targetReactCount: 1 });
    const undo = await send(bob, { type: 'Undo', object: { type: 'React', to: publicPost } });
    expect(undo.status).toBe(201);
    expect(undo.body.result).toMatchObject({ status: 'unreacted', targetReactCount: 0 });
    expect(
      (await api.get<{ reactCount: number }>(`/posts/${publicPost}`, { token: bob.token })).body.reactCount,
    ).toBe(0);

    const again = await send(bob, { type: 'React', to: publicPost, object: { emoji: '🎉' } });
    const byId = await send(bob, { type: 'Undo', object: again.body.activity!.id });
    expect(byId.body.result).toMatchObject({ status: 'unreacted' });
    // Someone else's activity id cannot be undone.
    const alicesReact = await send(alice, { type: 'React', to: publicPost, object: { emoji: '😀' } });
    expect((await send(bob, { type: 'Undo', object: alicesReact.body.activity!.id })).status).toBe(404);
  });

  test('Undo of a Follow unfollows; anything else is ignored; validation', async () => {
    const undo = await send(carol, { type: 'Undo', object: { type: 'Follow', object: alice.id } });
    expect(undo.body.result).toMatchObject({ id: me[carol.id]!.following, changed: true });
    expect(await timeline(carol, me[carol.id]!.following)).not.toContain(publicPost);
    const ignored = await send(carol, { type: 'Undo', object: { type: 'Announce', object: publicPost } });
    expect(ignored.status).toBe(201);
    expect(ignored.body.result).toEqual({ status: 'ignored', type: 'Announce' });
    expect((await send(carol, { type: 'Undo' })).status).toBe(400);
    expect((await send(carol, { type: 'Undo', object: { type: 'React' } })).status).toBe(400);
  });
});

describe('Delete of accounts, folders and groups; admin moderation', () => {
  test('a user deletes only themselves; a deleted account can no longer act', async () => {
    const dave = await registerActor(api, 'dave');
    expect((await send(carol, { type: 'Delete', target: dave.id })).status).toBe(403);
    const del = await send(dave, { type: 'Delete', target: dave.id });
    expect(del.status).toBe(201);
    expect(del.body.result).toMatchObject({ id: dave.id, active: false });
    expect(JSON.stringify(del.body)).not.toMatch(/password|privateKey/);
    // Sign-in state is cached per process for a moment (AUTH_CACHE_MS).
    await waitFor(async () => (await api.get('/auth/me', { token: dave.token })).status === 401, 10_000);
    expect(
      (await send(dave, { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'ghost' } }))
        .status,
    ).toBe(401);
  });

  test('deleting a bookmark folder tombstones its descendants of the same owner', async () => {
    const bookmarks = server.services[0]!.runtime!.repos.bookmarks;
    const base = { actorId: alice.id, to: '@public', server: '@social.test' };
    const folder = 'bookmark:aaaaaaaaaaaaaaaaaaaaaaa1@social.test';
    const sub = 'bookmark:aaaaaaaaaaaaaaaaaaaaaaa2@social.test';
    const items = [
      { ...base, id: folder, type: 'Folder', title: 'Reading' },
      { ...base, id: sub, type: 'Folder', title: 'Later', parentFolder: folder },
      {
        ...base,
        id: 'bookmark:aaaaaaaaaaaaaaaaaaaaaaa3@social.test',
        type: 'Bookmark',
        href: 'https://example.com/a',
        parentFolder: sub,
      },
      {
        ...base,
        id: 'bookmark:aaaaaaaaaaaaaaaaaaaaaaa4@social.test',
        actorId: bob.id,
        type: 'Bookmark',
        href: 'https://example.com/b',
        parentFolder: folder,
      },
    ];
    for (const item of items) await bookmarks.create(item);
    const moved = await send(alice, { type: 'Update', target: sub, object: { parentFolder: sub } });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatch(/^object\.parentFolder: /);
    expect((await send(bob, { type: 'Delete', target: folder })).status).toBe(403);
    expect((await send(alice, { type: 'Delete', target: folder })).status).toBe(201);
    const stored = await Promise.all(items.map((i) => bookmarks.byId(i.id)));
    const tomb = Object.fromEntries(stored.map((r) => [r!.id.slice(32, 33), r!.type]));
    expect(tomb).toEqual({ '1': 'Tombstone', '2': 'Tombstone', '3': 'Tombstone', '4': 'Bookmark' });
  });

  test('groups are updated by their creator only and validated', async () => {
    const id = 'group:bbbbbbbbbbbbbbbbbbbbbbb1@social.test';
    await server.services[0]!.runtime!.repos.groups.create({
      id,
      name: 'Gardeners',
      actorId: alice.id,
      to: '@public',
      canReply: '@public',
      canReact: '@public',
    });
    const res = await send(alice, {
      type: 'Update',
      target: id,
      object: { name: 'Gardeners United', rsvpPolicy: 'approvalOnly' },
    });
    expect(res.body.result).toMatchObject({ name: 'Gardeners United', rsvpPolicy: 'approvalOnly' });
    expect((await send(bob, { type: 'Update', target: id, object: { name: 'Mine' } })).status).toBe(403);
    const bad = await send(alice, { type: 'Update', target: id, object: { rsvpPolicy: 'anyone' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^object\.rsvpPolicy: /);
  });

  test("a server admin may update and delete anyone's post", async () => {
    const login = await api.post<{ token: string }>('/auth/login', {
      username: ADMIN.username,
      password: ADMIN.password,
    });
    const admin = { id: `@${ADMIN.username}@social.test`, username: ADMIN.username, token: login.body.token };
    const post = await send(carol, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'rule-breaking' },
    });
    const id = post.body.createdId!;
    expect(
      (await send(admin, { type: 'Update', target: id, object: { title: 'Moderated' } })).body.result,
    ).toMatchObject({ title: 'Moderated', actorId: carol.id });
    const del = await send(admin, { type: 'Delete', target: id });
    expect(del.body.result).toMatchObject({ type: 'Tombstone', deletedBy: admin.id });
    expect((await api.get(`/posts/${id}`, { token: carol.token })).status).toBe(404);
  });
});

describe('operator injection', () => {
  const inj = { $ne: null };
  test.each([
    ['Reply to', { type: 'Reply', to: inj, object: { content: 'x' } }],
    ['React to', { type: 'React', to: inj, object: { emoji: '👍' } }],
    [
      'React emoji',
      { type: 'React', to: 'post:000000000000000000000000@social.test', object: { emoji: inj } },
    ],
    ['Update target', { type: 'Update', target: inj, object: { title: 'x' } }],
    ['Update object.to', { type: 'Update', target: 'OWN_POST', object: { to: inj } }],
    ['Delete target', { type: 'Delete', target: inj }],
    ['Flag target', { type: 'Flag', target: inj, object: { reason: 'spam' } }],
    [
      'Flag reason',
      { type: 'Flag', target: 'post:000000000000000000000000@social.test', object: { reason: inj } },
    ],
    ['Block target', { type: 'Block', target: inj }],
    ['Follow object', { type: 'Follow', object: inj }],
    ['Undo object', { type: 'Undo', object: inj }],
    ['Undo object.to', { type: 'Undo', object: { type: 'React', to: inj } }],
  ])('%s as {"$ne": null} → 400', async (_name, activity) => {
    const res = await send(alice, JSON.parse(JSON.stringify(activity).replace('OWN_POST', publicPost)));
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });
});
