/**
 * /users (behaviour-notes §3.3, §3.5, fixed): listing with clamped paging, lookups for each kind
 * of viewer, the server actor and ActivityPub actor documents, and a user's posts and circles by
 * audience tier. The User Update activity (§4.3) and the activity log: users-update.test.ts.
 */
import type { Runtime } from '@agora/common/runtime';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { USERS, type StoredUser } from '@agora/common/db';

type Coll<T = Record<string, unknown>> = {
  type: string;
  totalItems: number;
  orderedItems: T[];
  currentPage?: number;
  next?: string;
  prev?: string;
  first?: string;
};
type Item = Record<string, unknown> & { id: string };

let server: TestServer;
let api: ReturnType<typeof client>;
let rt: Runtime;
let alice: Actor, bob: Actor, carol: Actor;
const u = (id: string) => `/users/${encodeURIComponent(id)}`;
const ids = (c: { orderedItems: Item[] }) => c.orderedItems.map((i) => i.id);
const AP = { accept: 'application/activity+json' };

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  rt = server.services[0]!.runtime!;
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  carol = await registerActor(api, 'carol');
});
afterAll(async () => {
  await server?.close();
});

describe('GET /users', () => {
  test('lists live local users newest first with spec 1.5 paging; limit is clamped to 1..100', async () => {
    // 101 older users straight into the database, so the upper clamp is observable.
    const old = new Date('2020-01-01T00:00:00Z');
    const rows = rt.db.engine.collection<StoredUser>(USERS);
    await rows.insertMany(
      Array.from({ length: 101 }, (_, i) => ({
        _id: `@filler${i}@social.test`,
        id: `@filler${i}@social.test`,
        username: `filler${i}`,
        domain: 'social.test',
        active: true,
        deletedAt: null,
        to: '@public',
        profile: {},
        createdAt: old,
        updatedAt: old,
      })) as unknown as StoredUser[],
    );
    // A cached remote user is not one of ours.
    await rt.repos.users.create({
      id: '@zed@remote.test',
      username: 'zed_remote',
      domain: 'remote.test',
      password: '',
    });
    const first = await api.get<Coll<Item>>('/users?limit=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ type: 'OrderedCollection', totalItems: 105 });
    expect(ids(first.body)).toEqual([carol.id, bob.id, alice.id]);
    expect(first.body.first).toBe('https://social.test/users?limit=3&page=1');
    const page2 = await api.get<Coll<Item>>('/users?limit=2&page=2');
    expect(page2.body).toMatchObject({ type: 'OrderedCollectionPage', currentPage: 2, totalItems: 105 });
    expect(ids(page2.body)).toEqual([alice.id, '@root_admin@social.test']);
    expect([page2.body.prev, page2.body.next]).toEqual([
      'https://social.test/users?limit=2&page=1',
      'https://social.test/users?limit=2&page=3',
    ]);

    const most = await api.get<Coll<Item>>('/users?limit=1000');
    expect(most.body.orderedItems).toHaveLength(100);
    expect(ids(most.body)).not.toContain('@zed@remote.test');
    for (const q of ['limit=0', 'limit=-5&page=-2'])
      expect((await api.get<Coll<Item>>(`/users?${q}`)).body.orderedItems).toHaveLength(1);
    // Nobody's e-mail or secrets in a list, not even one's own.
    const mine = await api.get<Coll<Item>>('/users?limit=5', { token: alice.token });
    expect(JSON.stringify(mine.body)).not.toMatch(/password|VerificationToken|ResetToken/);
    expect(mine.body.orderedItems.find((x) => x.id === bob.id)).not.toHaveProperty('email');
  });
});

describe('GET /users/:id', () => {
  beforeAll(async () => {
    await rt.repos.users.setFields(alice.id, { email: 'alice@example.test' });
  });

  test('anonymous, other users and the user themselves: the e-mail is shown to its owner only', async () => {
    for (const token of [undefined, bob.token]) {
      const res = await api.get<{ item: Item }>(u(alice.id), token ? { token } : {});
      expect(res.status).toBe(200);
      expect(res.body.item).toMatchObject({
        id: alice.id,
        username: 'alice',
        type: 'Person',
        objectType: 'User',
      });
      expect(res.body.item).not.toHaveProperty('email');
      expect(JSON.stringify(res.body)).not.toMatch(/password|privateKey|Token/);
    }
    const self = await api.get<{ item: Item }>(u(alice.id), { token: alice.token });
    expect(self.body.item.email).toBe('alice@example.test');
    expect(JSON.stringify(self.body)).not.toMatch(/password|privateKey|Token/);
  });

  test('a bare username means the local user; unknown, deleted and non-user ids are 404', async () => {
    for (const name of ['alice', 'Alice'])
      expect((await api.get<{ item: Item }>(`/users/${name}`)).body.item.id).toBe(alice.id);
    expect(await api.get('/users/nobody')).toMatchObject({ status: 404, body: { error: 'Not found' } });
    for (const id of ['@nobody@social.test', '@someone@elsewhere.test'])
      expect((await api.get(u(id))).status).toBe(404);
    const post = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'not a user' },
    });
    expect((await api.get(u(post.body.createdId!))).status).toBe(404);

    const dave = await registerActor(api, 'dave');
    await rt.repos.users.deactivate(dave.id);
    for (const opts of [{}, { token: bob.token }, { headers: AP }])
      expect((await api.get('/users/dave', opts)).status).toBe(404);
    expect((await api.get('/users/dave/posts')).status).toBe(404);
    expect(ids((await api.get<Coll<Item>>('/users?limit=10')).body)).not.toContain(dave.id);
  });

  test('the bare server handle is the server actor, with the server key', async () => {
    const pem = await rt.repos.settings.get<string>('publicKey');
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const res = await api.get<{ item: Item & { publicKey: Record<string, string> } }>(u('@social.test'));
    expect(res.body.item).toMatchObject({
      id: '@social.test',
      type: 'Application',
      name: 'Agora',
      inbox: 'https://social.test/inbox',
      outbox: 'https://social.test/outbox',
    });
    expect(res.body.item.publicKey).toEqual({
      id: `${res.body.item.url as string}#main-key`,
      owner: res.body.item.url,
      publicKeyPem: pem,
    });
    const ap = await api.get<Item & { publicKey: Record<string, string> }>(u('@social.test'), {
      headers: AP,
    });
    expect(ap.headers.get('content-type')).toMatch(/^application\/activity\+json/);
    expect(ap.body).toMatchObject({
      type: 'Application',
      id: res.body.item.url,
      preferredUsername: 'social.test',
      publicKey: { publicKeyPem: pem },
    });
  });

  test("with an ActivityPub Accept the raw actor document is returned, with the user's own key", async () => {
    const serverPem = await rt.repos.settings.get<string>('publicKey');
    for (const accept of [
      'application/activity+json',
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
      'text/html, application/activity+json',
    ]) {
      const res = await api.get<Item & { publicKey: Record<string, string>; '@context': string[] }>(
        '/users/alice',
        { headers: { accept } },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/activity\+json/);
      expect(res.headers.get('vary')).toMatch(/Accept/i);
      expect(res.body['@context']).toEqual([
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
      ]);
      const actor = 'https://social.test/users/alice';
      expect(res.body).toMatchObject({
        id: actor,
        type: 'Person',
        preferredUsername: 'alice',
        inbox: `${actor}/inbox`,
        outbox: `${actor}/outbox`,
        endpoints: { sharedInbox: 'https://social.test/inbox' },
        handle: alice.id,
      });
      // alice's own key (the one /ap/users/alice publishes and her deliveries are signed with).
      const pem = (await rt.repos.activityPub.actorKey(alice.id))?.publicKeyPem;
      expect(pem).toMatch(/BEGIN PUBLIC KEY/);
      expect(pem).not.toBe(serverPem);
      expect(res.body.publicKey).toEqual({
        id: 'https://social.test/users/alice#main-key',
        owner: 'https://social.test/users/alice',
        publicKeyPem: pem,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/example\.test|password|privateKey/);
    }
    expect((await api.get('/users/nobody', { headers: AP })).status).toBe(404);
  });
});

describe('GET /users/:id/posts and /circles by tier', () => {
  let closeCircle: string, publicCircle: string, serverCircle: string;
  const posts: Record<string, string> = {};

  beforeAll(async () => {
    const mk = async (to: string, name: string) =>
      (await outbox(api, alice, { type: 'Create', objectType: 'Circle', to, object: { name } })).body
        .createdId!;
    closeCircle = await mk(alice.id, 'Close');
    publicCircle = await mk('@public', 'Open');
    serverCircle = await mk('@social.test', 'Locals');
    expect((await outbox(api, alice, { type: 'Add', target: closeCircle, object: bob.id })).status).toBe(201);
    const plan: Array<[string, string, string]> = [
      ['public', '@public', 'Note'],
      ['server', '@social.test', 'Note'],
      ['circle', closeCircle, 'Note'],
      ['private', alice.id, 'Note'],
      ['article', '@public', 'Article'],
    ];
    for (const [key, to, type] of plan) {
      const res = await outbox(api, alice, {
        type: 'Create',
        objectType: 'Post',
        to,
        object: { type, content: `alice ${key} post` },
      });
      expect(res.status).toBe(201);
      posts[key] = res.body.createdId!;
    }
  });

  test('anonymous sees @public posts only; locals add @domain; members add the circle; the author sees all', async () => {
    const list = async (who?: Actor, q = '') =>
      ids((await api.get<Coll<Item>>(`/users/alice/posts${q}`, who ? { token: who.token } : {})).body);
    const anon = await list();
    expect(anon).toEqual(expect.arrayContaining([posts.public, posts.article]));
    for (const hidden of [posts.server, posts.circle, posts.private]) expect(anon).not.toContain(hidden);
    const byCarol = await list(carol);
    expect(byCarol).toEqual(expect.arrayContaining([posts.public, posts.server]));
    for (const hidden of [posts.circle, posts.private]) expect(byCarol).not.toContain(hidden);
    const byBob = await list(bob);
    expect(byBob).toEqual(expect.arrayContaining([posts.public, posts.server, posts.circle]));
    expect(byBob).not.toContain(posts.private);
    expect(await list(alice)).toEqual(expect.arrayContaining(Object.values(posts)));
    // Filters never widen the audience.
    expect(await list(carol, '?sort=top&limit=100')).not.toContain(posts.circle);
    expect(await list(carol, '?type=Note,Article')).not.toContain(posts.circle);
  });

  test('type, since and sort=top; bad filters are 400', async () => {
    const items = (await api.get<Coll<Item>>('/users/alice/posts?type=Article')).body.orderedItems;
    expect(items.map((p) => p.id)).toEqual([posts.article]);
    expect(items[0]).toMatchObject({ visibility: 'Public', canReply: false });
    expect((await api.get<Coll<Item>>('/users/alice/posts?since=2999-01-01T00:00:00Z')).body.totalItems).toBe(
      0,
    );
    await rt.repos.posts.set(posts.public!, { reactCount: 5 });
    const top = await api.get<Coll<Item>>('/users/alice/posts?sort=top', { token: carol.token });
    expect(top.body.orderedItems[0]!.id).toBe(posts.public);
    const newest = await api.get<Coll<Item>>('/users/alice/posts', { token: carol.token });
    expect(newest.body.orderedItems[0]!.id).toBe(posts.article);
    expect((await api.get('/users/alice/posts?since=yesterday')).status).toBe(400);
    expect((await api.get('/users/alice/posts?type=Note&type=Article')).status).toBe(400);
    expect((await api.get('/users/alice/posts?type=$ne')).status).toBe(400);
    // Query strings are parsed "extended": bracket syntax yields objects, which are refused.
    expect((await api.get('/users/alice/posts?type[$ne]=Note')).status).toBe(400);
    expect((await api.get('/users/alice/posts?since[$gt]=2000-01-01')).status).toBe(400);
  });

  test('circles: others see @public (locals also @domain); the owner sees all but system circles, and may ask contains', async () => {
    const names = (c: Coll<Item>) => c.orderedItems.map((x) => x.name);
    expect(ids((await api.get<Coll<Item>>('/users/alice/circles')).body)).toEqual([publicCircle]);
    const local = await api.get<Coll<Item>>('/users/alice/circles', { token: carol.token });
    expect(ids(local.body)).toEqual([serverCircle, publicCircle]);

    const own = await api.get<Coll<Item>>(
      `/users/alice/circles?contains=${encodeURIComponent(bob.id)}&limit=100`,
      { token: alice.token },
    );
    expect(ids(own.body)).toEqual(expect.arrayContaining([publicCircle, serverCircle, closeCircle]));
    expect(names(own.body)).toContain('Following');
    for (const system of ['Groups', 'All Following', 'Blocked', 'Muted'])
      expect(names(own.body)).not.toContain(system);
    const byId = new Map(own.body.orderedItems.map((c) => [c.id, c]));
    expect([byId.get(closeCircle)!.contains, byId.get(publicCircle)!.contains]).toEqual([true, false]);
    expect(Object.keys(byId.get(closeCircle)!).sort()).toEqual([
      'contains',
      'createdAt',
      'id',
      'memberCount',
      'name',
      'to',
      'updatedAt',
    ]);
    // Membership questions are the owner's alone.
    const asked = await api.get<Coll<Item>>(`/users/alice/circles?contains=${encodeURIComponent(bob.id)}`, {
      token: carol.token,
    });
    expect(asked.body.orderedItems.every((c) => !('contains' in c))).toBe(true);
    expect((await api.get(`/users/alice/circles?contains=a&contains=b`, { token: alice.token })).status).toBe(
      400,
    );
    expect((await api.get('/users/alice/circles?contains[$ne]=x', { token: alice.token })).status).toBe(400);
    expect((await api.get('/users/alice?mode[$ne]=x')).status).toBe(400);
    expect((await api.get('/users/nobody/circles')).status).toBe(404);
  });

  test('groups and bookmarks lists are wired to their views', async () => {
    for (const path of ['/users/alice/groups', '/users/alice/bookmarks']) {
      expect(await api.get<Coll<Item>>(path, { token: bob.token })).toMatchObject({
        status: 200,
        body: { type: 'OrderedCollection' },
      });
      expect((await api.get(path.replace('alice', 'nobody'))).status).toBe(404);
    }
  });
});
