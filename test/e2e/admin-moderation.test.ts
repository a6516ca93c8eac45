/**
 * /admin/flagged and /admin/activities: the guard, the flag queue (user flags a post → listed as
 * open → resolved with notes → 409 on a second close), validation, and the activity log's
 * filters and secrecy.
 */
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let adminId: string;
let alice: Actor;
let bob: Actor;
let postId: string;

interface Flag {
  id: string;
  target: string;
  targetType: string;
  actorId: string;
  status: string;
  reason: { code: string; label: string };
  notes?: string;
  resolvedAt?: string;
  resolvedBy?: string;
}
interface Page<T> {
  totalItems: number;
  orderedItems: T[];
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = login.body.token;
  adminId = login.body.user.id;
  alice = await registerActor(api, 'mod_alice');
  bob = await registerActor(api, 'mod_bob');
  const post = await outbox(api, bob, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'buy cheap watches' },
  });
  expect(post.status).toBe(201);
  postId = post.body.createdId!;
});
afterAll(async () => {
  await server?.close();
});

const as = (token: string) => ({ token });
const enc = encodeURIComponent;
const patch = (id: string, body: unknown) =>
  api.call('PATCH', `/admin/flagged/${enc(id)}`, { body, token: admin });
const flagged = (query = '') => api.get<Page<Flag>>(`/admin/flagged${query}`, as(admin));
const flagPost = (by: Actor, target: string, reason = 'spam') =>
  outbox(api, by, { type: 'Flag', target, object: { reason } });

describe('guard', () => {
  test('anonymous → 401, non-admin → 403 on flagged and activities', async () => {
    const id = enc('flag:000000000000000000000000@social.test');
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/admin/flagged'],
      ['GET', `/admin/flagged/${id}`],
      ['PATCH', `/admin/flagged/${id}`, { status: 'resolved' }],
      ['GET', '/admin/activities'],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await api.call(method, path, { body })).status]).toEqual([method, path, 401]);
      expect([method, path, (await api.call(method, path, { body, token: alice.token })).status]).toEqual([
        method,
        path,
        403,
      ]);
    }
  });
});

describe('/admin/flagged', () => {
  test('a flag is queued as open, resolved with notes, and cannot be closed twice', async () => {
    const created = await flagPost(alice, postId);
    expect(created.status).toBe(201);
    const flagId = created.body.createdId!;
    expect(flagId).toMatch(/^flag:/);

    const open = await flagged();
    expect(open.status).toBe(200);
    const listed = open.body.orderedItems.find((f) => f.id === flagId);
    expect(listed).toMatchObject({
      target: postId,
      targetType: 'Post',
      actorId: alice.id,
      status: 'open',
      reason: { code: 'spam' },
    });
    expect(listed).not.toHaveProperty('_id');
    expect(listed).not.toHaveProperty('__v');

    const detail = await api.get<{ flag: Flag }>(`/admin/flagged/${enc(flagId)}`, as(admin));
    expect(detail.status).toBe(200);
    expect(detail.body.flag).toMatchObject({ id: flagId, status: 'open' });

    const resolved = await patch(flagId, { status: 'resolved', notes: 'removed the post' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      ok: true,
      flag: { id: flagId, status: 'resolved', notes: 'removed the post', resolvedBy: adminId },
    });
    expect(typeof (resolved.body as { flag: Flag }).flag.resolvedAt).toBe('string');

    expect((await flagged()).body.orderedItems.map((f) => f.id)).not.toContain(flagId);
    const closed = await flagged('?status=resolved');
    expect(closed.body.orderedItems.find((f) => f.id === flagId)).toMatchObject({ status: 'resolved' });
    expect((await flagged('?status=all')).body.orderedItems.map((f) => f.id)).toContain(flagId);

    for (const status of ['resolved', 'dismissed'])
      expect(await patch(flagId, { status })).toMatchObject({
        status: 409,
        body: { error: 'Flag is already resolved' },
      });
  });

  test('dismissing, filters and newest-first order', async () => {
    const a = await flagPost(bob, alice.id, 'harassment');
    const b = await flagPost(alice, postId, 'misinformation');
    expect([a.status, b.status]).toEqual([201, 201]);
    const [userFlag, postFlag] = [a.body.createdId!, b.body.createdId!];

    const all = (await flagged()).body.orderedItems.map((f) => f.id);
    expect(all.indexOf(postFlag)).toBeLessThan(all.indexOf(userFlag));
    const byType = (await flagged('?targetType=User')).body.orderedItems;
    expect(byType.map((f) => f.id)).toEqual([userFlag]);
    const byActor = (await flagged(`?actorId=${enc(bob.id)}`)).body.orderedItems;
    expect(byActor.map((f) => f.id)).toEqual([userFlag]);

    const dismissed = await patch(userFlag, { status: 'dismissed' });
    expect(dismissed).toMatchObject({ status: 200, body: { ok: true, flag: { status: 'dismissed' } } });
    expect((await flagged('?status=dismissed')).body.orderedItems.map((f) => f.id)).toEqual([userFlag]);
    expect((await patch(userFlag, { status: 'resolved' })).status).toBe(409);
  });

  test('bad status, notes, query and unknown ids', async () => {
    const created = await flagPost(alice, postId, 'other');
    const flagId = created.body.createdId!;
    for (const status of ['open', 'closed', undefined, { $ne: null }])
      expect(await patch(flagId, { status })).toMatchObject({
        status: 400,
        body: { error: "status: must be 'resolved' or 'dismissed'" },
      });
    const long = await patch(flagId, { status: 'resolved', notes: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect((long.body as { error: string }).error).toMatch(/^notes:/);
    // None of the rejected requests closed it.
    expect((await api.get<{ flag: Flag }>(`/admin/flagged/${enc(flagId)}`, as(admin))).body.flag.status).toBe(
      'open',
    );

    expect((await flagged('?status=bogus')).status).toBe(400);
    expect((await flagged('?actorId[$ne]=x')).status).toBe(400);

    const unknown = enc('flag:000000000000000000000000@social.test');
    expect(await api.get(`/admin/flagged/${unknown}`, as(admin))).toMatchObject({
      status: 404,
      body: { error: 'Flag not found' },
    });
    expect(await patch('flag:000000000000000000000000@social.test', { status: 'resolved' })).toMatchObject({
      status: 404,
      body: { error: 'Flag not found' },
    });
  });
});

describe('/admin/activities', () => {
  interface Activity {
    id: string;
    type: string;
    actorId: string;
    objectType?: string;
    objectId?: string;
  }
  const activities = (query = '') => api.get<Page<Activity>>(`/admin/activities${query}`, as(admin));

  test('filters by type, actorId and objectType, newest first, without internal fields', async () => {
    const res = await activities(`?type=Flag&actorId=${enc(alice.id)}`);
    expect(res.status).toBe(200);
    expect(res.body.orderedItems.length).toBeGreaterThanOrEqual(2);
    for (const a of res.body.orderedItems) expect(a).toMatchObject({ type: 'Flag', actorId: alice.id });

    const posts = (await activities('?objectType=Post')).body.orderedItems;
    expect(posts.map((a) => a.objectId)).toContain(postId);
    for (const a of posts) expect(a.objectType).toBe('Post');

    const newest = await flagPost(bob, postId, 'illegal');
    expect(newest.status).toBe(201);
    const latest = (await activities()).body.orderedItems[0]!;
    expect(latest).toMatchObject({ type: 'Flag', actorId: bob.id });
    for (const key of ['_id', '__v', 'events', 'published', 'dedupeKey'])
      expect(latest).not.toHaveProperty(key);
  });

  test('non-string filters are 400', async () => {
    for (const q of ['?type[$ne]=x', '?actorId[$gt]=', '?objectType=a&objectType=b'])
      expect([q, (await activities(q)).status]).toEqual([q, 400]);
  });

  test('an outbox registration is logged without the password', async () => {
    const secret = 'hunter2-very-secret';
    const reg = await outbox(api, undefined, {
      type: 'Create',
      objectType: 'User',
      object: { username: 'mod_carol', password: secret },
    });
    expect(reg.status).toBe(201);
    const res = await activities('?objectType=User&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.orderedItems.map((a) => a.objectId)).toContain('@mod_carol@social.test');
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(JSON.stringify((await activities('?limit=100')).body)).not.toContain(secret);
  });
});
