/**
 * /admin/system and /admin/users: guard, stats, admin/moderator membership with the
 * last-admin guard, and the user delete → cannot log in → restore → can log in story.
 */
import type { BusMessage } from '@agora/common/messaging';
import { registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let adminId: string;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = login.body.token;
  adminId = login.body.user.id;
  alice = await registerActor(api, 'sys_alice');
  bob = await registerActor(api, 'sys_bob');
});
afterAll(async () => {
  await server?.close();
});

const as = (token: string) => ({ token });
const del = (path: string, token = admin) => api.call('DELETE', path, { token });
const login = (username: string) => api.post('/auth/login', { username, password: 'password123' });

describe('guard', () => {
  test('anonymous → 401, non-admin → 403 on the system and users routers', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/admin/system'],
      ['GET', '/admin/system/admins'],
      ['POST', '/admin/system/admins', { userId: '@sys_alice@social.test' }],
      ['DELETE', `/admin/system/admins/${encodeURIComponent('@root_admin@social.test')}`],
      ['GET', '/admin/system/mods'],
      ['GET', '/admin/users'],
      ['GET', `/admin/users/${encodeURIComponent('@sys_bob@social.test')}`],
      ['DELETE', `/admin/users/${encodeURIComponent('@sys_bob@social.test')}`],
      ['POST', `/admin/users/${encodeURIComponent('@sys_bob@social.test')}/restore`],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await api.call(method, path, { body })).status]).toEqual([method, path, 401]);
      expect([method, path, (await api.call(method, path, { body, token: alice.token })).status]).toEqual([
        method,
        path,
        403,
      ]);
    }
    // Nothing above changed anything.
    expect((await login('sys_bob')).status).toBe(200);
  });
});

describe('GET /admin/system', () => {
  test('database, counts, disk and process figures', async () => {
    const res = await api.get<{
      db: { name: string; collections: number };
      counts: Record<string, number>;
      disk: { totalKb: number } | null;
      process: { pid: number; node: string; memory: { rss: number } };
    }>('/admin/system', as(admin));
    expect(res.status).toBe(200);
    expect(typeof res.body.db.name).toBe('string');
    expect(res.body.db.collections).toBeGreaterThan(0);
    const keys = [
      'users',
      'posts',
      'groups',
      'circles',
      'pages',
      'replies',
      'reacts',
      'activities',
      'openFlags',
    ];
    for (const k of [...keys, 'activeInvites']) expect(Number.isInteger(res.body.counts[k])).toBe(true);
    expect(res.body.counts.users).toBeGreaterThanOrEqual(3);
    expect(res.body.counts.circles).toBeGreaterThan(0);
    expect(res.body.process.node).toBe(process.version);
    expect(res.body.process.memory.rss).toBeGreaterThan(0);
    expect(res.body.disk?.totalKb).toBeGreaterThan(0);
  });
});

describe('admins and moderators', () => {
  test('add, list, remove; the last admin and yourself cannot be removed', async () => {
    const list = async (role: string) =>
      (
        await api.get<{ members: Array<{ id: string }> }>(`/admin/system/${role}`, as(admin))
      ).body.members.map((m) => m.id);
    expect(await list('admins')).toEqual([adminId]);

    // You cannot remove yourself, and the only admin is the last admin.
    const self = await del(`/admin/system/admins/${encodeURIComponent(adminId)}`);
    expect(self.status).toBe(409);

    expect((await api.post('/admin/system/admins', {}, as(admin))).status).toBe(400);
    expect((await api.post('/admin/system/admins', { userId: { $ne: null } }, as(admin))).status).toBe(400);
    expect((await api.post('/admin/system/admins', { userId: '@ghost@social.test' }, as(admin))).status).toBe(
      404,
    );

    const add = await api.post('/admin/system/admins', { userId: alice.id }, as(admin));
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ ok: true });
    const again = await api.post('/admin/system/admins', { userId: alice.id }, as(admin));
    expect(again.body).toEqual({ ok: true, alreadyMember: true });
    expect(await list('admins')).toEqual(expect.arrayContaining([adminId, alice.id]));
    // Alice is now an admin.
    expect((await api.get('/admin/whoami', as(alice.token))).status).toBe(200);

    // Alice may remove the root admin, but then not herself: she is the last one.
    expect((await del(`/admin/system/admins/${encodeURIComponent(adminId)}`, alice.token)).status).toBe(200);
    // The root admin lost access at once (the guard reads the role circle on every request).
    expect((await api.get('/admin/whoami', as(admin))).status).toBe(403);
    const last = await del(`/admin/system/admins/${encodeURIComponent(alice.id)}`, alice.token);
    expect(last.status).toBe(409);
    // Put the root admin back and take Alice out again.
    expect((await api.post('/admin/system/admins', { userId: adminId }, as(alice.token))).status).toBe(200);
    expect((await del(`/admin/system/admins/${encodeURIComponent(alice.id)}`)).status).toBe(200);
    expect((await api.get('/admin/whoami', as(alice.token))).status).toBe(403);
    expect(await list('admins')).toEqual([adminId]);
    expect((await del(`/admin/system/admins/${encodeURIComponent(bob.id)}`)).status).toBe(404);
  });

  test('moderators', async () => {
    expect((await api.post('/admin/system/mods', { userId: bob.id }, as(admin))).status).toBe(200);
    const mods = await api.get<{ members: Array<{ id: string; name: string }> }>(
      '/admin/system/mods',
      as(admin),
    );
    expect(mods.body.members.map((m) => m.id)).toContain(bob.id);
    expect((await del(`/admin/system/mods/${encodeURIComponent(bob.id)}`)).status).toBe(200);
    const after = await api.get<{ members: Array<{ id: string }> }>('/admin/system/mods', as(admin));
    expect(after.body.members.map((m) => m.id)).not.toContain(bob.id);
    // A moderator is not an admin.
    expect((await api.get('/admin/system', as(bob.token))).status).toBe(403);
  });
});

describe('/admin/users', () => {
  const path = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

  test('list and detail never return secrets', async () => {
    const res = await api.get<{ orderedItems: Array<Record<string, unknown>>; totalItems: number }>(
      '/admin/users',
      as(admin),
    );
    expect(res.status).toBe(200);
    expect(res.body.orderedItems.map((u) => u.id)).toEqual(expect.arrayContaining([alice.id, bob.id]));
    expect(JSON.stringify(res.body)).not.toMatch(/password|"_id"/);
    const one = await api.get<{ user: Record<string, unknown> }>(path(bob.id), as(admin));
    expect(one.body.user).toMatchObject({ id: bob.id, username: 'sys_bob' });
    expect((await api.get(path('@nobody@social.test'), as(admin))).status).toBe(404);
    expect((await api.get('/admin/users?deleted=maybe', as(admin))).status).toBe(400);
  });

  test('soft delete → cannot log in → restore → can log in', async () => {
    const gone = await del(path(bob.id));
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ ok: true, user: { id: bob.id, active: false } });
    expect((await login('sys_bob')).status).toBe(401);
    expect((await del(path(bob.id))).status).toBe(409);

    const live = await api.get<{ orderedItems: Array<{ id: string }> }>('/admin/users', as(admin));
    expect(live.body.orderedItems.map((u) => u.id)).not.toContain(bob.id);
    const deleted = await api.get<{ orderedItems: Array<{ id: string }> }>(
      '/admin/users?deleted=true',
      as(admin),
    );
    expect(deleted.body.orderedItems.map((u) => u.id)).toEqual([bob.id]);
    const both = await api.get<{ orderedItems: Array<{ id: string }> }>(
      '/admin/users?deleted=include',
      as(admin),
    );
    expect(both.body.orderedItems.map((u) => u.id)).toEqual(expect.arrayContaining([bob.id, alice.id]));

    const back = await api.post(`${path(bob.id)}/restore`, {}, as(admin));
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ ok: true, user: { id: bob.id, active: true, deletedAt: null } });
    expect((await login('sys_bob')).status).toBe(200);
  });

  test('deletes and restores are recorded as activities with their user events', async () => {
    const seen: BusMessage[] = [];
    await server.services[0]!.runtime!.bus.subscribe(
      'test.admin-users',
      ['user.deleted', 'user.restored'],
      (msg) => {
        seen.push(msg);
        return Promise.resolve();
      },
    );
    const dan = await registerActor(api, 'sys_dan');
    expect((await del(path(dan.id))).status).toBe(200);
    expect((await api.post(`${path(dan.id)}/restore`, {}, as(admin))).status).toBe(200);
    // Restoring a live account again changes nothing and records nothing.
    expect((await api.post(`${path(dan.id)}/restore`, {}, as(admin))).status).toBe(200);
    expect((await del(`${path(dan.id)}?fullDelete=true`)).status).toBe(200);
    await waitFor(async () => Promise.resolve(seen.length >= 3), 10_000);
    expect(seen.map((m) => [m.name, m.payload])).toEqual([
      // A soft delete is a suspension (ADR 0028): peers get an Update, not a Delete.
      ['user.deleted', { userId: dan.id, actorId: adminId, suspension: true }],
      ['user.restored', { userId: dan.id, actorId: adminId }],
      ['user.deleted', { userId: dan.id, actorId: adminId, hard: true }],
    ]);
    const logged = await api.get<{ orderedItems: Array<Record<string, unknown>> }>(
      `/admin/activities?objectType=User&actorId=${encodeURIComponent(adminId)}`,
      as(admin),
    );
    expect(logged.body.orderedItems.filter((a) => a.objectId === dan.id).map((a) => a.type)).toEqual([
      'Delete',
      'Restore',
      'Delete',
    ]);
  });

  test("an admin's full delete withdraws what the account wrote; a soft delete keeps it for the restore", async () => {
    const erin = await registerActor(api, 'sys_erin');
    const fred = await registerActor(api, 'sys_fred');
    const postAs = async (who: Actor, content: string) =>
      (
        await api.post<{ createdId: string }>(
          '/outbox',
          { type: 'Create', objectType: 'Post', to: '@public', object: { content } },
          as(who.token),
        )
      ).body.createdId;
    const erinPost = await postAs(erin, 'Erin writes');
    const fredPost = await postAs(fred, 'Fred writes');
    const listed = async () =>
      (await api.get<{ orderedItems: Array<{ id: string }> }>('/posts?limit=100')).body.orderedItems.map(
        (p) => p.id,
      );
    expect(await listed()).toEqual(expect.arrayContaining([erinPost, fredPost]));

    // Soft: reversible (a suspension: hidden meanwhile), the restored account finds its post.
    expect((await del(path(erin.id))).status).toBe(200);
    expect((await api.get(`/posts/${erinPost}`)).status).toBe(404);
    expect(await listed()).not.toContain(erinPost);
    expect((await api.post(`${path(erin.id)}/restore`, {}, as(admin))).status).toBe(200);
    expect((await api.get(`/posts/${erinPost}`)).status).toBe(200);
    // Full: nothing of the account outlives it.
    expect((await del(`${path(fred.id)}?fullDelete=true`)).status).toBe(200);
    expect((await api.get(`/posts/${fredPost}`)).status).toBe(404);
    expect(await listed()).not.toContain(fredPost);
  });

  test('an admin cannot delete themself; fullDelete removes the user document', async () => {
    expect((await del(path(adminId))).status).toBe(409);
    const carol = await registerActor(api, 'sys_carol');
    const hard = await del(`${path(carol.id)}?fullDelete=true`);
    expect(hard.body).toEqual({ ok: true, hardDeleted: true });
    expect((await api.get(path(carol.id), as(admin))).status).toBe(404);
    expect((await login('sys_carol')).status).toBe(401);
  });
});
