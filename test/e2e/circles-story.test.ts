/**
 * The circle story of the social issue: alice makes a private circle with bob in it and posts
 * to it; bob reads it in the circle timeline; carol (not a member) can reach neither the circle
 * nor the post by any route. The users are shared; every test makes its own circle and post
 * (the fixtures below), so the tests pass in any order and alone.
 */
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ACTIVITIES } from '@agora/common/db';
import { allStored } from '../harness/stored';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;
let seq = 0;

/** A fresh circle of alice's, addressed to herself, holding bob. */
async function closeFriends(): Promise<string> {
  const created = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: `Close friends ${(seq += 1)}` },
  });
  if (created.status !== 201)
    throw new Error(`create circle: ${created.status} ${JSON.stringify(created.body)}`);
  const circleId = created.body.createdId!;
  const add = await outbox(api, alice, { type: 'Add', target: circleId, object: bob.id });
  if (add.status !== 201) throw new Error(`add bob: ${add.status} ${JSON.stringify(add.body)}`);
  return circleId;
}

/** alice's post to a circle. */
async function postTo(circleId: string): Promise<string> {
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: circleId,
    object: { type: 'Note', content: `For **close friends** only (${(seq += 1)})` },
  });
  if (post.status !== 201) throw new Error(`post: ${post.status} ${JSON.stringify(post.body)}`);
  return post.body.createdId!;
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob, carol] = (await Promise.all(['alice', 'bob', 'carol'].map((n) => registerActor(api, n)))) as [
    Actor,
    Actor,
    Actor,
  ];
});
afterAll(async () => {
  await server?.close();
});

test('alice creates a circle addressed to herself and adds bob', async () => {
  const created = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Close friends' },
  });
  expect(created.status).toBe(201);
  expect(created.body.ok).toBe(true);
  const circleId = created.body.createdId!;
  expect(circleId).toMatch(/^circle:[0-9a-f]{24}@social\.test$/);
  const add = await outbox(api, alice, { type: 'Add', target: circleId, object: bob.id });
  expect(add.status).toBe(201);
  expect((add.body.result as { memberCount: number }).memberCount).toBe(1);
  // Adding twice keeps one membership.
  const again = await outbox(api, alice, { type: 'Add', target: circleId, object: [bob.id] });
  expect((again.body.result as { memberCount: number }).memberCount).toBe(1);
  // Only the owner changes members.
  expect((await outbox(api, carol, { type: 'Add', target: circleId, object: carol.id })).status).toBe(403);
});

test('alice posts to the circle; bob sees it in the circle timeline', async () => {
  const circleId = await closeFriends();
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: circleId,
    object: { type: 'Note', content: 'For **close friends** only' },
  });
  expect(post.status).toBe(201);
  const postId = post.body.createdId!;
  expect(post.body.result).toMatchObject({ id: postId, to: circleId });
  expect(String(post.body.result?.body)).toContain('<strong>close friends</strong>');

  // bob follows alice through his Following circle, so her posts reach his timeline.
  const bobMe = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  expect(
    (await outbox(api, bob, { type: 'Add', target: bobMe.body.user.following, object: alice.id })).status,
  ).toBe(201);
  const tl = await api.get<{ orderedItems: Array<{ id: string }>; totalItems: number }>(
    `/circles/${bobMe.body.user.following}/posts`,
    { token: bob.token },
  );
  expect(tl.status).toBe(200);
  expect(tl.body.orderedItems.map((p) => p.id)).toContain(postId);
  // Timeline items: the author, the date and what bob may do (behaviour-notes §3.7).
  const item = tl.body.orderedItems.find((p) => p.id === postId);
  expect(item).toMatchObject({
    attributedTo: { id: alice.id, name: 'alice', server: '@social.test' },
    visibility: 'Audience',
    canReply: true,
    canReact: true,
  });
  expect(String((item as { published?: unknown }).published)).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(item).not.toHaveProperty('audience');
  // bob can open the post itself.
  expect((await api.get(`/posts/${postId}`, { token: bob.token })).status).toBe(200);
});

test("carol, not a member, gets the spec's circle tiers (403 signed in, 401 anonymous) and cannot find the post by any route", async () => {
  const circleId = await closeFriends();
  const postId = await postTo(circleId);
  // Spec 4.2 rules 2 and 3, section 7: denied is 403, unauthenticated 401, missing 404.
  const missing = 'circle:0123456789abcdef01234567@social.test';
  for (const path of ['', '/members', '/posts']) {
    expect((await api.get(`/circles/${circleId}${path}`, { token: carol.token })).status).toBe(403);
    expect((await api.get(`/circles/${circleId}${path}`)).status).toBe(401);
    expect((await api.get(`/circles/${missing}${path}`, { token: carol.token })).status).toBe(404);
  }
  expect((await api.get(`/circles/${circleId}`, { token: carol.token })).body).toEqual({
    error: 'Access denied',
  });
  expect((await api.get(`/circles/${circleId}`)).body).toEqual({ error: 'Unauthorized' });
  // Anonymous: 404 for a missing circle's detail, 401 for any timeline (rule 3).
  expect((await api.get(`/circles/${missing}`)).status).toBe(404);
  expect((await api.get(`/circles/${missing}/posts`)).status).toBe(401);
  expect((await api.get(`/posts/${postId}`, { token: carol.token })).status).toBe(404);
  expect((await api.get(`/posts/${postId}`)).status).toBe(404);
  expect((await api.get(`/posts/${postId}/replies`, { token: carol.token })).status).toBe(404);
  expect((await api.get(`/posts/${postId}/reacts`, { token: carol.token })).status).toBe(404);
  const list = await api.get<{ orderedItems: Array<{ id: string }> }>('/posts', { token: carol.token });
  expect(list.body.orderedItems.map((p) => p.id)).not.toContain(postId);
  // carol follows alice: the circle post still never reaches her timeline.
  const carolMe = await api.get<{ user: { following: string } }>('/auth/me', { token: carol.token });
  await outbox(api, carol, { type: 'Add', target: carolMe.body.user.following, object: alice.id });
  const tl = await api.get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${carolMe.body.user.following}/posts`,
    { token: carol.token },
  );
  expect(tl.body.orderedItems.map((p) => p.id)).not.toContain(postId);
});

test('circle detail for the owner and a member carries isOwner and isMember', async () => {
  const circleId = await closeFriends();
  const own = await api.get<{ item: { isOwner: boolean; isMember: boolean } }>(`/circles/${circleId}`, {
    token: alice.token,
  });
  expect(own.body.item).toMatchObject({ isOwner: true, isMember: false });
  const member = await api.get<{ item: { isOwner: boolean; isMember: boolean } }>(`/circles/${circleId}`, {
    token: bob.token,
  });
  expect(member.body.item).toMatchObject({ isOwner: false, isMember: true });
  const members = await api.get<{ totalItems: number; orderedItems: Array<{ id: string }> }>(
    `/circles/${circleId}/members`,
    { token: bob.token },
  );
  expect(members.body.orderedItems.map((m) => m.id)).toEqual([bob.id]);
  expect(
    (await api.get('/circles/circle:000000000000000000000000@social.test', { token: alice.token })).status,
  ).toBe(404);
});

test('removing a member takes their access away; adding them back restores it', async () => {
  const circleId = await closeFriends();
  const postId = await postTo(circleId);
  expect((await api.get(`/posts/${postId}`, { token: bob.token })).status).toBe(200);
  const removed = await outbox(api, alice, { type: 'Remove', target: circleId, object: bob.id });
  expect(removed.status).toBe(201);
  expect((removed.body.result as { memberCount: number }).memberCount).toBe(0);
  expect((await api.get(`/circles/${circleId}`, { token: bob.token })).status).toBe(403);
  expect((await api.get(`/posts/${postId}`, { token: bob.token })).status).toBe(404);
  // The gateway refuses a like-for-like Add within 30 s (spec 1.6); an Idempotency-Key opts out.
  const readd = await api.post(
    '/outbox',
    { type: 'Add', target: circleId, object: bob.id },
    { token: alice.token, headers: { 'idempotency-key': 're-add-bob' } },
  );
  expect(readd.status).toBe(201);
  expect((await api.get(`/posts/${postId}`, { token: bob.token })).status).toBe(200);
});

test('PATCH /circles/:id/seen: owner only, valid dates, never rewinds', async () => {
  const circleId = await closeFriends();
  const seen = (who: Actor | undefined, lastSeenAt: unknown, id = circleId) =>
    api.call<{ lastSeenAt?: string; error?: string }>('PATCH', `/circles/${id}/seen`, {
      body: { lastSeenAt },
      ...(who ? { token: who.token } : {}),
    });
  expect((await seen(undefined, '2026-01-01T00:00:00Z')).status).toBe(401);
  expect((await seen(bob, '2026-01-01T00:00:00Z')).status).toBe(403);
  expect((await seen(alice, 'not a date')).status).toBe(400);
  expect((await seen(alice, { $gt: '' })).status).toBe(400);
  expect(
    (await seen(alice, '2026-01-01T00:00:00Z', 'circle:000000000000000000000000@social.test')).status,
  ).toBe(404);
  const first = await seen(alice, '2026-06-01T00:00:00.000Z');
  expect(first.body.lastSeenAt).toBe('2026-06-01T00:00:00.000Z');
  const back = await seen(alice, '2026-01-01T00:00:00.000Z');
  expect(back.status).toBe(200);
  expect(back.body.lastSeenAt).toBe('2026-06-01T00:00:00.000Z');
});

test('GET /circles tiers: anonymous sees @public, local users also @domain; private circles never', async () => {
  const circleId = await closeFriends();
  const pub = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: '@public',
    object: { name: 'Public circle' },
  });
  const srv = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: '@social.test',
    object: { name: 'Server circle' },
  });
  const ids = (body: { orderedItems: Array<{ id: string }> }) => body.orderedItems.map((c) => c.id);
  const anon = await api.get<{ orderedItems: Array<{ id: string; userReacted: boolean }> }>(
    '/circles?limit=100',
  );
  expect(ids(anon.body)).toContain(pub.body.createdId);
  expect(ids(anon.body)).not.toContain(srv.body.createdId);
  expect(ids(anon.body)).not.toContain(circleId);
  const local = await api.get<{ orderedItems: Array<{ id: string; userReacted: boolean }> }>(
    '/circles?limit=100',
    { token: carol.token },
  );
  expect(ids(local.body)).toEqual(expect.arrayContaining([pub.body.createdId, srv.body.createdId]));
  expect(ids(local.body)).not.toContain(circleId);
  expect(local.body.orderedItems.every((c) => c.userReacted === false)).toBe(true);
  // @domain circle detail: local users yes, anonymous no.
  expect((await api.get(`/circles/${srv.body.createdId}`, { token: carol.token })).status).toBe(200);
  expect((await api.get(`/circles/${srv.body.createdId}`)).status).toBe(401);
  expect((await api.get(`/circles/${pub.body.createdId}`)).status).toBe(200);
  // Rule 3: a timeline answers 401 to any unauthenticated request, even a public circle's.
  expect((await api.get(`/circles/${pub.body.createdId}/posts`)).status).toBe(401);
  expect((await api.get(`/circles/${pub.body.createdId}/posts`, { token: carol.token })).status).toBe(200);
});

test('outbox validation and authorisation', async () => {
  const circleId = await closeFriends();
  expect(
    (await outbox(api, undefined, { type: 'Create', objectType: 'Post', object: { content: 'x' } })).status,
  ).toBe(401);
  expect((await outbox(api, alice, { type: 'Explode' })).status).toBe(400);
  expect((await outbox(api, alice, [1, 2])).status).toBe(400);
  const noName = await outbox(api, alice, { type: 'Create', objectType: 'Circle', object: {} });
  expect(noName.status).toBe(400);
  expect(noName.body.error).toMatch(/object\.name/);
  const inj = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: { $ne: null },
    object: { content: 'x' },
  });
  expect(inj.status).toBe(400);
  // Posting to someone else's private circle is refused.
  expect(
    (
      await outbox(api, carol, {
        type: 'Create',
        objectType: 'Post',
        to: circleId,
        object: { content: 'sneaky' },
      })
    ).status,
  ).toBe(404);
  // The actor is always the token's user.
  const spoof = await outbox(api, carol, {
    type: 'Create',
    objectType: 'Post',
    actorId: alice.id,
    to: '@public',
    object: { content: 'who am i', actorId: alice.id },
  });
  expect(spoof.status).toBe(201);
  expect(spoof.body.result).toMatchObject({ actorId: carol.id });
});

test('registration through the outbox runs the same checks as /register', async () => {
  const ok = await outbox(api, undefined, {
    type: 'Create',
    objectType: 'User',
    object: { username: 'dave', password: 'password123' },
  });
  expect(ok.status).toBe(201);
  expect(ok.body.createdId).toBe('@dave@social.test');
  expect(JSON.stringify(ok.body)).not.toContain('password123');
  expect(
    (
      await outbox(api, undefined, {
        type: 'Create',
        objectType: 'User',
        object: { username: 'dave', password: 'password123' },
      })
    ).status,
  ).toBe(409);
  expect(
    (
      await outbox(api, undefined, {
        type: 'Create',
        object: { type: 'Person', username: 'x', password: 'password123' },
      })
    ).status,
  ).toBe(400);
  // The whole log, as stored: the registration's activity must not hold the password.
  const activities = await allStored(server.services[0]!.runtime!.db.engine, ACTIVITIES);
  expect(JSON.stringify(activities)).toContain('@dave@social.test');
  expect(JSON.stringify(activities)).not.toContain('password123');
});

test('Idempotency-Key replays the first result', async () => {
  const body = { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'once only' } };
  const headers = { 'idempotency-key': 'abc-123' };
  const a = await api.post<{ createdId: string }>('/outbox', body, { token: alice.token, headers });
  const b = await api.post<{ createdId: string }>('/outbox', body, { token: alice.token, headers });
  expect(a.status).toBe(201);
  expect(b.status).toBe(200);
  expect(b.body.createdId).toBe(a.body.createdId);
});
