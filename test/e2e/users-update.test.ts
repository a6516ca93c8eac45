/**
 * The User Update activity (behaviour-notes §4.3): the owner updates profile and prefs per
 * sub-key (sanitised), the profile audience hides personal fields, validation names the field,
 * nobody else may update a user, a password change needs the current password, and the activity
 * log these updates fill is read by its owner only.
 */
import type { Runtime } from '@agora/common/runtime';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { allStored } from '../harness/stored';

let server: TestServer;
let api: ReturnType<typeof client>;
let rt: Runtime;
let alice: Actor, bob: Actor;
type Item = Record<string, unknown> & { id: string };
type Coll<T> = { type: string; orderedItems: T[] };
const AP = { accept: 'application/activity+json' };

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  rt = server.services[0]!.runtime!;
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  await rt.repos.users.setFields(alice.id, { email: 'alice@example.test' });
});
afterAll(async () => {
  await server?.close();
});

describe('Update of a user', () => {
  // The gateway's 30 s de-duplication hashes no part of an Update's object, so each call carries
  // its own Idempotency-Key (which also exempts it).
  let n = 0;
  const update = (who: Actor, object: unknown, target = who.id) =>
    api.post<{ result?: Record<string, unknown>; error?: string }>(
      '/outbox',
      { type: 'Update', target, object },
      { token: who.token, headers: { 'idempotency-key': `update-${(n += 1)}` } },
    );

  test('the owner updates profile and prefs per sub-key; the description is sanitised', async () => {
    const first = await update(alice, {
      profile: {
        name: 'Alice A.',
        pronouns: 'she/her',
        description: '<script>alert(1)</script><strong>Hi</strong> there',
      },
      prefs: { theme: 'dark' },
    });
    expect(first.status).toBe(201);
    expect(first.body.result).toMatchObject({
      id: alice.id,
      profile: { name: 'Alice A.', pronouns: 'she/her', description: '<strong>Hi</strong> there' },
      prefs: { theme: 'dark' },
    });
    const second = await update(alice, {
      profile: { name: 'Alice B.' },
      prefs: { lang: 'en', notify: { reply: false } },
    });
    expect(second.status).toBe(201);
    expect(second.body.result).toMatchObject({
      email: 'alice@example.test',
      profile: { name: 'Alice B.', pronouns: 'she/her', description: '<strong>Hi</strong> there' },
      prefs: { theme: 'dark', lang: 'en', notify: { reply: false } },
    });
    const seen = await api.get<{ item: Item & { profile: Record<string, unknown> } }>('/users/alice');
    expect([seen.body.item.profile.name, seen.body.item.prefs]).toEqual(['Alice B.', undefined]);
    // Registration sanitises the description the same way.
    const reg = await api.post<{ user: { profile: { description: string } } }>('/register', {
      username: 'erin',
      password: 'password123',
      profile: { description: '<img src=x onerror=alert(1)>hey' },
    });
    expect(reg.body.user.profile.description).toBe('<img src="x" />hey');
  });

  test('the profile audience: @domain hides personal fields from anonymous and remote viewers', async () => {
    expect((await update(alice, { to: 'server' })).status).toBe(201);
    const anon = await api.get<{ item: Item & { profile: Record<string, unknown> } }>('/users/alice');
    expect(anon.body.item.audienceRestricted).toBe(true);
    expect(anon.body.item.profile).not.toHaveProperty('description');
    expect((await api.get<Item>('/users/alice', { headers: AP })).body.summary).toBeNull();
    const local = await api.get<{ item: Item & { profile: Record<string, unknown> } }>('/users/alice', {
      token: bob.token,
    });
    expect(local.body.item.profile.description).toBe('<strong>Hi</strong> there');
    expect((await update(alice, { to: '@public' })).status).toBe(201);
    expect((await api.get<Item>('/users/alice', { headers: AP })).body.summary).toBe(
      '<strong>Hi</strong> there',
    );
  });

  test('validation errors name the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ profile: { description: 'x'.repeat(5001) } }, /^object\.profile\.description/],
      [{ profile: { name: '' } }, /^object\.profile\.name/],
      [{ profile: { icon: 'javascript:alert(1)' } }, /^object\.profile\.icon/],
      [{ profile: { urls: ['ftp://x.test'] } }, /^object\.profile\.urls/],
      [{ to: 'circle:000000000000000000000000@social.test' }, /^object\.to/],
      [{ to: { $ne: null } }, /^object\.to/],
      [{ email: 'new@example.test' }, /^object/],
      [{ prefs: { 'a.b': true } }, /^object\.prefs/],
      [{ prefs: { $where: true } }, /^object\.prefs/],
      [{}, /^object: nothing to change/],
      ['just a string', /^object/],
      [
        { password: { current: 'password123', new: 'short' } },
        /^object\.password\.new: Password must be at least 8 characters/,
      ],
    ];
    for (const [object, message] of cases) {
      const res = await update(alice, object);
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(message)]);
    }
  });

  test('nobody else may update a user, not even an admin', async () => {
    expect((await update(bob, { profile: { name: 'Hacked' } }, alice.id)).status).toBe(403);
    const { token } = (
      await api.post<{ token: string }>('/auth/login', { username: ADMIN.username, password: ADMIN.password })
    ).body;
    const admin: Actor = { id: '@root_admin@social.test', username: ADMIN.username, token };
    expect((await update(admin, { profile: { name: 'Hacked by admin' } }, alice.id)).status).toBe(403);
    expect(
      (await update(admin, { password: { current: 'x', new: 'new-password-1' } }, alice.id)).status,
    ).toBe(403);
    expect((await update(bob, { profile: { name: 'x' } }, '@nobody@social.test')).status).toBe(404);
    expect(
      (
        await outbox(api, undefined, {
          type: 'Update',
          target: alice.id,
          object: { profile: { name: 'anon' } },
        })
      ).status,
    ).toBe(401);
    expect(
      (await api.get<{ item: { profile: { name: string } } }>('/users/alice')).body.item.profile.name,
    ).toBe('Alice B.');
  });

  test('password change: the current password must match; then only the new one logs in', async () => {
    const wrong = await update(alice, {
      password: { current: 'not-my-password', new: 'brand-new-password' },
    });
    expect([wrong.status, wrong.body.error]).toEqual([
      403,
      expect.stringMatching(/^object\.password\.current/),
    ]);
    expect((await api.post('/auth/login', { username: 'alice', password: 'password123' })).status).toBe(200);

    const ok = await update(alice, { password: { current: 'password123', new: 'brand-new-password' } });
    expect([ok.status, JSON.stringify(ok.body)]).toEqual([
      201,
      expect.not.stringMatching(/brand-new-password|password123|scrypt/),
    ]);
    expect((await api.post('/auth/login', { username: 'alice', password: 'password123' })).status).toBe(401);
    expect(
      (await api.post('/auth/login', { username: 'alice', password: 'brand-new-password' })).status,
    ).toBe(200);
    const logged = (await allStored<ActivityRecord & { _id: string }>(rt.db.engine, ACTIVITIES)).filter(
      (d) => d.actorId === alice.id,
    );
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toMatch(/brand-new-password|password123|scrypt\$/);
  });
});

describe('GET /users/:id/activities', () => {
  test('only the user reads their own activity log', async () => {
    const own = await api.get<Coll<Item>>('/users/alice/activities?limit=100', { token: alice.token });
    expect([own.status, own.body.type]).toEqual([200, 'OrderedCollection']);
    const updates = own.body.orderedItems.filter((a) => a.type === 'Update');
    expect(updates.length).toBeGreaterThanOrEqual(4);
    expect(updates[0]).toMatchObject({ objectType: 'User', objectId: alice.id, target: alice.id });
    const allowed = ['id', 'type', 'objectType', 'objectId', 'target', 'to', 'createdAt'];
    for (const a of own.body.orderedItems)
      expect(Object.keys(a).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(
      (await api.get(`/users/${encodeURIComponent(alice.id)}/activities`, { token: alice.token })).status,
    ).toBe(200);
    expect((await api.get('/users/alice/activities', { token: bob.token })).status).toBe(403);
    expect((await api.get('/users/alice/activities')).status).toBe(401);
  });
});
