/**
 * An admin's soft delete of a user is a reversible suspension (ADR 0028, docs/security.md
 * "Deleted accounts"): while it lasts nobody else reads anything of the account here (its posts
 * and replies by id, in timelines, lists, search, threads and Discover, and its profile), the
 * admin lists still show it all, and a restore brings every read back exactly as it was.
 */
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let bob: Actor;
let bobFollowing: string;
let alicePost: string;
let bobPost: string;
let aliceReply: string;
const enc = encodeURIComponent;

type Row = Record<string, unknown> & { id: string };
interface Page {
  totalItems: number;
  orderedItems: Row[];
}

async function created(who: Actor | string, activity: Record<string, unknown>): Promise<string> {
  const res = await api.post<{ createdId?: string }>(
    '/outbox',
    activity,
    typeof who === 'string' ? { token: who } : { token: who.token },
  );
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

const as = (who?: Actor) => (who ? { token: who.token } : {});
const ids = (p: { body: Page }) => (p.body.orderedItems ?? []).map((x) => x.id);
const adminCall = <T = Record<string, unknown>>(method: string, path: string) =>
  api.call<T>(method, path, { token: admin });

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'susp_alice');
  bob = await registerActor(api, 'susp_bob');
  bobFollowing = (await api.get<{ user: { following: string } }>('/auth/me', as(bob))).body.user.following;
  expect((await outbox(api, bob, { type: 'Add', target: bobFollowing, object: alice.id })).status).toBe(201);
  alicePost = await created(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'Lighthousekeeper notes from the rock' },
  });
  bobPost = await created(bob, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'Who has been to the lighthouse?' },
  });
  aliceReply = await created(alice, { type: 'Reply', to: bobPost, object: { content: 'I keep it!' } });
  await created(alice, { type: 'React', to: bobPost, object: { emoji: '🔦' } });
  // Discover: the admin recommends alice's post on a public shelf.
  const section = await api.call<{ section: Row }>('POST', '/admin/sections', {
    token: admin,
    body: { name: 'Picks', order: 1 },
  });
  expect(section.status).toBe(201);
  const rec = await api.call('POST', '/admin/recommendations', {
    token: admin,
    body: { section: section.body.section.id, ref: alicePost },
  });
  expect(rec.status).toBe(201);
  // The search index is written by a consumer: wait until alice's post is found.
  await waitFor(async () => (await searchIds('lighthousekeeper', bob)).includes(alicePost), 20_000);
});
afterAll(async () => {
  await server?.close();
});

async function searchIds(q: string, who?: Actor): Promise<string[]> {
  const res = await api.get<Page>(`/search?q=${enc(q)}`, as(who));
  expect(res.status).toBe(200);
  return ids(res);
}

/** Everything a reader may see of alice, as one snapshot (statuses and bodies). */
async function whatIsRead(who?: Actor) {
  const post = await api.get<Row>(`/posts/${enc(alicePost)}`, as(who));
  const profile = await api.get<{ item?: Row }>(`/users/${enc(alice.id)}`, as(who));
  const byName = await api.get<{ item?: Row }>(`/users/${alice.username}`, as(who));
  const posts = await api.get<Page>(`/users/${enc(alice.id)}/posts`, as(who));
  const local = await api.get<Page>('/posts', as(who));
  const replies = await api.get<Page>(`/posts/${enc(bobPost)}/replies`, as(who));
  const thread = await api.get<Row>(`/posts/${enc(bobPost)}`, as(who));
  const reacts = await api.get<Page>(`/posts/${enc(bobPost)}/reacts`, as(who));
  const discover = await api.get<{ sections?: Array<{ items: Row[] }> }>('/recommendations', as(who));
  const pulled = await api.get<{ items?: Row[] }>(`/outbox?from=${enc(alice.id)}`, as(who));
  const pulledAll = await api.get<{ items?: Row[] }>('/outbox', as(who));
  const pulledIds = [...(pulled.body.items ?? []), ...(pulledAll.body.items ?? [])].map((i) => i.id);
  return {
    pulled: pulledIds.filter((id) => id === alicePost),
    post: { status: post.status, body: post.body },
    profile: { status: profile.status, body: profile.body },
    byName: byName.status,
    authorPosts: { status: posts.status, ids: posts.status === 200 ? ids(posts) : [] },
    localPosts: ids(local).filter((id) => id === alicePost),
    replies: { ids: ids(replies), total: replies.body.totalItems },
    threadReplyCount: thread.body.replyCount,
    reactors: { ids: (reacts.body.orderedItems ?? []).map((r) => r.actorId), total: reacts.body.totalItems },
    search: (await searchIds('lighthousekeeper', who)).filter((id) => id === alicePost),
    searchUser: (await searchIds('susp_alice', who)).filter((id) => id === alice.id),
    discover: (discover.body.sections ?? [])
      .flatMap((s) => s.items.map((i) => i.id))
      .filter((id) => id === alicePost),
  };
}

async function timelineOfBob(): Promise<string[]> {
  const res = await api.get<Page>(`/circles/${enc(bobFollowing)}/posts`, as(bob));
  expect(res.status).toBe(200);
  return ids(res);
}

test("a soft-deleted user's content is hidden from everyone else until the restore brings it back unchanged", async () => {
  const before = { bob: await whatIsRead(bob), anonymous: await whatIsRead() };
  expect(before.bob.post.status).toBe(200);
  expect(before.bob.profile.status).toBe(200);
  expect(before.bob.byName).toBe(200);
  expect(before.bob.authorPosts.ids).toContain(alicePost);
  expect(before.bob.localPosts).toEqual([alicePost]);
  expect(before.bob.replies.ids).toContain(aliceReply);
  expect(before.bob.reactors).toEqual({ ids: [alice.id], total: 1 });
  expect(before.bob.search).toEqual([alicePost]);
  expect(before.anonymous.pulled).toEqual([alicePost, alicePost]);
  expect(before.anonymous.post.status).toBe(200);
  expect(before.anonymous.replies.ids).toContain(aliceReply);
  expect(await timelineOfBob()).toContain(alicePost);

  expect((await adminCall('DELETE', `/admin/users/${enc(alice.id)}`)).status).toBe(200);

  for (const who of [bob, undefined]) {
    const now = await whatIsRead(who);
    expect(now.post.status).toBe(404);
    expect(now.post.body).toEqual({ error: 'Post not found' });
    expect(now.profile.status).toBe(404);
    expect(now.byName).toBe(404);
    expect(now.authorPosts.status).toBe(404);
    expect(now.localPosts).toEqual([]);
    expect(now.replies.ids).not.toContain(aliceReply);
    expect(now.replies.total).toBe(before.bob.replies.total - 1);
    expect(now.search).toEqual([]);
    expect(now.searchUser).toEqual([]);
    expect(now.discover).toEqual([]);
    expect(now.pulled).toEqual([]);
    expect(now.reactors).toEqual({ ids: [], total: 0 });
  }
  // The reply itself, read by id, is as missing as any unreadable object.
  expect((await api.get(`/posts/${enc(aliceReply)}`, as(bob))).status).toBe(404);
  expect(await timelineOfBob()).not.toContain(alicePost);
  // bob's own post stays readable: only alice's part of the thread is gone.
  expect((await api.get(`/posts/${enc(bobPost)}`, as(bob))).status).toBe(200);

  // The admin still lists the account and everything it wrote, with the spec's `deleted` modes.
  const users = await adminCall<Page>('GET', '/admin/users?deleted=true');
  expect(ids(users)).toContain(alice.id);
  const adminPost = await adminCall<Page>('GET', '/admin/posts?deleted=include');
  expect(ids(adminPost)).toContain(alicePost);
  expect((await adminCall('GET', `/admin/posts/${enc(alicePost)}`)).status).toBe(200);

  expect((await adminCall('POST', `/admin/users/${enc(alice.id)}/restore`)).status).toBe(200);

  expect(await whatIsRead(bob)).toEqual(before.bob);
  expect(await whatIsRead()).toEqual(before.anonymous);
  expect(await timelineOfBob()).toContain(alicePost);
  // alice can log in again and reads her own post as before.
  const login = await api.post<{ token: string }>('/auth/login', {
    username: alice.username,
    password: 'password123',
  });
  expect(login.status).toBe(200);
});

test('a suspended account cannot log in, and its own circle timelines stay closed to others', async () => {
  expect((await adminCall('DELETE', `/admin/users/${enc(alice.id)}`)).status).toBe(200);
  const login = await api.post('/auth/login', { username: alice.username, password: 'password123' });
  expect(login.status).not.toBe(200);
  expect((await api.get(`/posts/${enc(alicePost)}`, as(bob))).status).toBe(404);
  expect((await adminCall('POST', `/admin/users/${enc(alice.id)}/restore`)).status).toBe(200);
  expect((await api.get(`/posts/${enc(alicePost)}`, as(bob))).status).toBe(200);
});
