/**
 * The public client library (jzellis/kowloon-client) against this server: every call it makes
 * that this server answers, sent exactly as the library builds it (including the `actor` object
 * it injects into every activity, which the server ignores: the actor is the token's user).
 * docs/compatibility.md lists these calls and the ones not answered yet.
 */
import { registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;
let admin: Actor;
const me: Record<string, { following: string }> = {};
const enc = encodeURIComponent;

interface OutboxResult {
  ok: boolean;
  activity: Record<string, unknown>;
  result: Record<string, unknown> & { id?: string | null };
  createdId?: string;
  error?: string;
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  alice = await registerActor(api, 'lib_alice');
  bob = await registerActor(api, 'lib_bob');
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = { id: login.body.user.id, username: ADMIN.username, token: login.body.token };
  for (const a of [alice, bob])
    me[a.username] = (
      await api.get<{ user: { following: string } }>('/auth/me', { token: a.token })
    ).body.user;
});
afterAll(async () => {
  await server?.close();
});

/** ActivitiesClient._post: the actor built from the session user is added to every activity. */
async function post(as: Actor, activity: Record<string, unknown>, status = 201) {
  const domain = as.id.split('@')[2]!;
  const userPath = `https://${domain}/users/${enc(as.id)}`;
  const actor = {
    id: as.id,
    type: 'Person',
    name: as.username,
    icon: null,
    url: userPath,
    inbox: `${userPath}/inbox`,
    outbox: `${userPath}/outbox`,
    server: `@${domain}`,
  };
  const res = await api.post<OutboxResult>('/outbox', { ...activity, actor }, { token: as.token });
  expect([activity.type, res.status, res.body.error]).toEqual([activity.type, status, undefined]);
  expect(res.body.ok).toBe(true);
  expect(res.body.activity).toMatchObject({ type: activity.type, actorId: as.id });
  return res.body;
}

const get = async (path: string, token?: string) => {
  const res = await api.get(path, token ? { token } : {});
  expect([path, res.status]).toEqual([path, 200]);
  return res.body;
};

let postId = '';
let circleId = '';
let groupId = '';
let bookmarkId = '';

describe('ActivitiesClient', () => {
  test('posts: createPost, updatePost, reply, react, deleteReact', async () => {
    const created = await post(alice, {
      type: 'Create',
      objectType: 'Post',
      object: { type: 'Note', content: 'hello from the client', tags: ['intro'] },
      to: '@public',
      canReply: '@public',
      canReact: '@public',
    });
    postId = created.createdId!;
    expect(created.result.id).toBe(postId);
    expect(created.result.actorId).toBe(alice.id);

    const upd = await post(alice, {
      type: 'Update',
      objectType: 'Post',
      target: postId,
      object: { source: { content: 'edited from the client' }, title: 'Hi' },
    });
    expect(upd.result).toMatchObject({ id: postId, source: { content: 'edited from the client' } });

    const reply = await post(bob, {
      type: 'Reply',
      objectType: 'Reply',
      to: postId,
      object: { type: 'Reply', content: 'welcome' },
    });
    expect(String(reply.result.id)).toMatch(/^reply:/);

    const react = await post(bob, {
      type: 'React',
      objectType: 'React',
      to: postId,
      object: { type: 'React', emoji: '👍', name: 'Like' },
    });
    const reactId = String(react.result.id);
    expect(reactId).toMatch(/^react:/);
    await post(bob, { type: 'Undo', objectType: 'React', target: reactId });
    const reacts = (await get(`/posts/${enc(postId)}/reacts`)) as { totalItems: number };
    expect(reacts.totalItems).toBe(0);
  });

  test('circles: createCircle, updateCircle, addToCircle, removeFromCircle, follow, unfollow', async () => {
    const c = await post(alice, {
      type: 'Create',
      objectType: 'Circle',
      object: { type: 'Circle', name: 'Friends', summary: '' },
    });
    circleId = c.createdId!;
    expect(c.result.id).toBe(circleId);
    await post(alice, {
      type: 'Update',
      objectType: 'Circle',
      target: circleId,
      object: { name: 'Close friends' },
    });
    expect(
      (await post(alice, { type: 'Add', objectType: 'Circle', target: circleId, object: bob.id })).result.id,
    ).toBe(circleId);
    await post(alice, { type: 'Remove', objectType: 'Circle', target: circleId, object: bob.id });
    const following = me.lib_alice!.following;
    expect((await post(alice, { type: 'Add', object: bob.id, target: following })).result.id).toBe(following);
    await post(alice, { type: 'Remove', object: bob.id, target: following });
  });

  test('groups: createGroup, joinGroup, approveJoinRequest, leaveGroup', async () => {
    const g = await post(alice, {
      type: 'Create',
      objectType: 'Group',
      object: { type: 'Group', name: 'Readers', description: '', rsvpPolicy: 'approvalOnly' },
      to: '@public',
    });
    groupId = g.createdId!;
    expect(g.result.id).toBe(groupId);
    await post(bob, { type: 'Join', objectType: 'Group', target: groupId });
    await post(alice, { type: 'Add', to: groupId, object: bob.id });
    const members = await get(`/groups/${enc(groupId)}/members`);
    expect(JSON.stringify(members)).toContain(bob.id);
    await post(bob, { type: 'Leave', objectType: 'Group', target: groupId });
    // rejectJoinRequest: carol asks, alice refuses; carol is neither pending nor a member.
    const carol = await registerActor(api, 'lib_carol');
    await post(carol, { type: 'Join', objectType: 'Group', target: groupId });
    const asked = await api.get(`/groups/${enc(groupId)}/pending`, { token: alice.token });
    expect(JSON.stringify(asked.body)).toContain(carol.id);
    await post(alice, { type: 'Reject', to: groupId, object: carol.id });
    const pending = await api.get(`/groups/${enc(groupId)}/pending`, { token: alice.token });
    expect(JSON.stringify(pending.body)).not.toContain(carol.id);
    expect(JSON.stringify(await get(`/groups/${enc(groupId)}/members`))).not.toContain(carol.id);
    await post(alice, {
      type: 'Update',
      objectType: 'Group',
      target: groupId,
      object: { description: 'We read' },
    });
  });

  test('bookmarks, profile, relations and flags', async () => {
    const b = await post(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      object: { type: 'Bookmark', title: 'Agora', href: 'https://example.org/' },
      to: '@public',
    });
    bookmarkId = b.createdId!;
    expect(b.result.id).toBe(bookmarkId);
    await post(alice, {
      type: 'Update',
      objectType: 'Bookmark',
      target: bookmarkId,
      object: { title: 'Agora!' },
    });
    // getBookmark, getGroup, getGroupPosts while they exist.
    await get(`/bookmarks/${enc(bookmarkId)}`);
    await get(`/groups/${enc(groupId)}`);
    await get(`/groups/${enc(groupId)}/posts?page=1`);

    const profile = await post(alice, {
      type: 'Update',
      objectType: 'User',
      object: { profile: { name: 'Alice A' } },
    });
    expect(profile.result.id).toBe(alice.id);
    const fresh = await api.get<{ user: { profile: { name: string } } }>('/auth/me', { token: alice.token });
    expect(fresh.body.user.profile.name).toBe('Alice A');

    for (const type of ['Block', 'Unblock', 'Mute', 'Unmute'])
      await post(alice, { type, objectType: 'User', target: bob.id });
    const flag = await post(bob, {
      type: 'Flag',
      target: postId,
      object: { reason: 'spam', notes: 'sorry' },
    });
    expect(String(flag.result.id)).toMatch(/^flag:/);
  });

  test('createPage (admin) and the deletes', async () => {
    const page = await post(admin, {
      type: 'Create',
      objectType: 'Page',
      object: { type: 'Page', title: 'Help', content: 'How to' },
      to: '@public',
    });
    expect(String(page.result.id)).toMatch(/^page:/);
    await get(`/pages/${enc(page.createdId!)}`);
    await post(admin, {
      type: 'Update',
      objectType: 'Page',
      target: page.createdId,
      object: { title: 'Help!' },
    });
    await post(admin, { type: 'Delete', objectType: 'Page', target: page.createdId });
    await post(alice, { type: 'Delete', objectType: 'Bookmark', target: bookmarkId });
    await post(alice, { type: 'Delete', objectType: 'Circle', target: circleId });
    await post(alice, { type: 'Delete', objectType: 'Group', target: groupId });
  });
});

describe('FeedClient, NotificationsClient, AuthClient reads', () => {
  test('every read the library makes answers 200', async () => {
    const info = (await get('/')) as { settings: { reactEmojis: unknown[] } };
    expect(info.settings.reactEmojis.length).toBeGreaterThan(0);
    await get('/posts?type=Note&page=1');
    await get(`/pages?serverId=${enc('@social.test')}`);
    await get(`/circles/${enc(me.lib_alice!.following)}/posts?types=Note,Article&limit=5`, alice.token);
    await get(`/users/${enc(alice.id)}/posts?page=1`);
    await get(`/posts/${enc(postId)}`);
    await get(`/users/${enc(alice.id)}`);
    await get('/groups?limit=5');
    await get(`/circles/${enc(me.lib_alice!.following)}`, alice.token);
    await get(`/circles/${enc(me.lib_alice!.following)}/members`, alice.token);
    await get(`/users/${enc(alice.id)}/circles`, alice.token);
    await get(`/users/${enc(alice.id)}/bookmarks`, alice.token);
    await get(`/posts/${enc(postId)}/replies`);
    await get(`/posts/${enc(postId)}/reacts`);
    await get('/notifications?types=reply,react&unread=true&limit=5', alice.token);
    await get('/notifications/unread/count', alice.token);
    const readAll = await api.post('/notifications/read-all', {}, { token: alice.token });
    expect(readAll.status).toBe(200);
    await get('/auth/me', alice.token);
    // deletePost, last: the reads above use the post.
    await post(alice, { type: 'Delete', objectType: 'Post', target: postId });
    expect((await api.get(`/posts/${enc(postId)}`)).status).toBe(404);
  });
});
