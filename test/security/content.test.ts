/**
 * Security tier, content (docs/security.md): one URL schema for every URL-bearing field, handler
 * tables that cannot be reached through Object.prototype, a deleted account's content gone from
 * everything at once (and its deletion federated), and no existence oracles: an object the viewer
 * may not see answers exactly like a missing one, counts count only public items, ids are random.
 */
import { signRequest } from '@agora/common/federation';
import { runGc } from '../../services/social/src/workers/gc';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { createSocialContext } from '../../services/social/src/context';

const PEER = 'peer.test';
let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  peer = await startSigningPeer(PEER, (_req, res) => res.writeHead(202).end());
  server = await bootServer({
    ...peer.serverEnv,
    RATE_LIMITING_ENABLED: 'false',
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

const created = async (actor: Actor, activity: Record<string, unknown>): Promise<string> => {
  const res = await outbox(api, actor, activity);
  if (res.status !== 201)
    throw new Error(`${JSON.stringify(activity)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};
const post = (actor: Actor, to: string, content: string) =>
  created(actor, { type: 'Create', objectType: 'Post', to, object: { content } });
const ids = (body: Record<string, unknown>) =>
  ((body.orderedItems ?? body.items ?? []) as Array<{ id: string }>).map((i) => i.id);

/** A GET signed by the peer server: the request of a remote viewer. */
async function signedGet(path: string) {
  const headers = signRequest({
    method: 'GET',
    url: `${server.url}${path}`,
    keyId: peer.keyId,
    privateKeyPem: peer.privateKeyPem,
  });
  const res = await fetch(`${server.url}${path}`, { headers: { ...headers, accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('URL fields take http and https URLs only', () => {
  const BAD = [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>1</script>',
    'vbscript:x',
    `https://x.test/${'a'.repeat(2100)}`,
  ];

  test('every URL-bearing field of every Create refuses other schemes with a 400 naming the field', async () => {
    const cases: Array<[string, (url: string) => Record<string, unknown>]> = [
      [
        'post href',
        (u) => ({
          type: 'Create',
          objectType: 'Post',
          to: '@public',
          object: { type: 'Link', href: u, title: 't' },
        }),
      ],
      [
        'post image',
        (u) => ({ type: 'Create', objectType: 'Post', to: '@public', object: { content: 'c', image: u } }),
      ],
      [
        'post featuredImage',
        (u) => ({
          type: 'Create',
          objectType: 'Post',
          to: '@public',
          object: { content: 'c', featuredImage: u },
        }),
      ],
      [
        'group icon',
        (u) => ({ type: 'Create', objectType: 'Group', to: '@public', object: { name: 'g', icon: u } }),
      ],
      [
        'group image',
        (u) => ({ type: 'Create', objectType: 'Group', to: '@public', object: { name: 'g', image: u } }),
      ],
      [
        'bookmark href',
        (u) => ({ type: 'Create', objectType: 'Bookmark', to: '@public', object: { href: u } }),
      ],
      [
        'bookmark image',
        (u) => ({
          type: 'Create',
          objectType: 'Bookmark',
          to: '@public',
          object: { href: 'https://ok.test/', image: u },
        }),
      ],
      [
        'circle icon',
        (u) => ({ type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'c', icon: u } }),
      ],
      ['profile url', (u) => ({ type: 'Update', target: alice.id, object: { profile: { urls: [u] } } })],
      ['profile icon', (u) => ({ type: 'Update', target: alice.id, object: { profile: { icon: u } } })],
    ];
    for (const [name, make] of cases)
      for (const url of BAD) {
        const res = await outbox(api, alice, make(url));
        expect([name, url.slice(0, 30), res.status]).toEqual([name, url.slice(0, 30), 400]);
      }
    // The same fields take what they are for.
    await created(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { type: 'Link', href: 'https://ok.test/a', title: 't', image: 'https://ok.test/i.png' },
    });
    await created(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'iconic', icon: 'http://ok.test/i.png' },
    });
  });

  test('every URL-bearing field of Update refuses other schemes too', async () => {
    const link = await created(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { type: 'Link', href: 'https://ok.test/', title: 't' },
    });
    const group = await created(alice, {
      type: 'Create',
      objectType: 'Group',
      to: '@public',
      object: { name: 'grp' },
    });
    const mark = await created(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      to: '@public',
      object: { href: 'https://ok.test/' },
    });
    const circle = await created(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'c2' },
    });
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['post href', link, { href: 'javascript:alert(1)' }],
      ['post image', link, { image: 'javascript:alert(1)' }],
      ['group icon', group, { icon: 'javascript:alert(1)' }],
      ['group image', group, { image: 'data:image/svg+xml,<svg onload=alert(1)>' }],
      ['bookmark image', mark, { image: 'javascript:alert(1)' }],
      ['bookmark href', mark, { href: 'javascript:alert(1)' }],
      ['circle icon', circle, { icon: 'javascript:alert(1)' }],
    ];
    for (const [name, target, object] of cases) {
      const res = await outbox(api, alice, { type: 'Update', target, object });
      expect([name, res.status]).toEqual([name, 400]);
    }
    const stored = await api.get(`/posts/${encodeURIComponent(link)}`, {
      token: alice.token,
    });
    expect(stored.body.href).toBe('https://ok.test/');
  });
});

describe('handler tables are reached by own keys only', () => {
  test.each([
    ['objectType __proto__', { type: 'Create', objectType: '__proto__', object: {} }],
    ['objectType constructor', { type: 'Create', objectType: 'constructor', object: {} }],
    ['objectType valueOf', { type: 'Create', objectType: 'valueOf', object: {} }],
    ['objectType hasOwnProperty', { type: 'Create', objectType: 'hasOwnProperty', object: {} }],
    ['type constructor', { type: 'constructor', object: {} }],
    ['type __proto__', { type: '__proto__', object: {} }],
    ['Add target hasOwnProperty:x', { type: 'Add', target: 'hasOwnProperty:x', object: '@bob@social.test' }],
    ['Remove target constructor:x', { type: 'Remove', target: 'constructor:x', object: '@bob@social.test' }],
    ['Delete target constructor:x@social.test', { type: 'Delete', target: 'constructor:x@social.test' }],
    [
      'Update target toString:x@social.test',
      { type: 'Update', target: 'toString:x@social.test', object: { name: 'n' } },
    ],
    [
      'React target valueOf:x@social.test',
      { type: 'React', target: 'valueOf:x@social.test', object: { emoji: '👍' } },
    ],
  ])('%s → 4xx, nothing stored', async (_name, activity) => {
    const before = await api.get<{ totalItems: number }>(`/users/${alice.id}/activities`, {
      token: alice.token,
    });
    const res = await outbox(api, alice, activity);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const after = await api.get<{ totalItems: number }>(`/users/${alice.id}/activities`, {
      token: alice.token,
    });
    expect(after.body.totalItems).toBe(before.body.totalItems);
  });

  test('lookups by id kind do not reach the prototype either', async () => {
    for (const id of ['constructor:x@peer.test', '__proto__:x@peer.test', 'toString:x@social.test']) {
      const res = await api.get(`/posts/${encodeURIComponent(id)}?mode=remote`, { token: alice.token });
      expect([id, res.status]).toEqual([id, 404]);
    }
  });
});

describe('a deleted account leaves every listing at once', () => {
  test('posts leave /posts, /outbox, the author list, timelines and pulls; the deletion is federated; the GC removes them later', async () => {
    const carol = await registerActor(api, 'carol');
    // A remote follower, so the deletion has somewhere to go.
    expect(
      (
        await peer.send(`${server.url}/inbox`, {
          id: `http://${PEER}/activities/follow-carol`,
          type: 'Follow',
          actorId: `@dora@${PEER}`,
          actor: { id: `@dora@${PEER}`, inbox: `http://${PEER}/inbox` },
          object: carol.id,
        })
      ).status,
    ).toBe(202);
    // bob follows carol: her posts reach his Following timeline.
    await created(bob, { type: 'Follow', object: carol.id });
    const pub = await post(carol, '@public', 'soon gone');
    const local = await post(carol, '@social.test', 'locals only, soon gone');
    const bobMe = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
    const timeline = `/circles/${encodeURIComponent(bobMe.body.user.following)}/posts`;
    const listed = async () => ({
      posts: ids((await api.get('/posts?limit=100', { token: bob.token })).body),
      outbox: ids((await api.get('/outbox?limit=100')).body),
      from: ids((await api.get(`/outbox?from=${encodeURIComponent(carol.id)}`)).body),
      author: ids((await api.get(`/users/${encodeURIComponent(carol.id)}/posts`, { token: bob.token })).body),
      timeline: ids((await api.get(timeline, { token: bob.token })).body),
    });
    const before = await listed();
    expect(before.posts).toEqual(expect.arrayContaining([pub, local]));
    expect(before.outbox).toContain(pub);
    expect(before.from).toContain(pub);
    expect(before.timeline).toEqual(expect.arrayContaining([pub, local]));

    expect((await outbox(api, carol, { type: 'Delete', target: carol.id })).status).toBe(201);
    const after = await listed();
    for (const [where, list] of Object.entries(after)) {
      expect([where, list.includes(pub) || list.includes(local)]).toEqual([where, false]);
    }
    for (const id of [pub, local])
      expect((await api.get(`/posts/${encodeURIComponent(id)}`, { token: bob.token })).status).toBe(404);

    // After the retention period the GC removes the withdrawn content for good.
    const rt = server.services[0]!.runtime!;
    for (const id of [pub, local]) expect(await rt.repos.posts.byId(id)).not.toBeNull();
    await runGc(createSocialContext(rt), new Date(Date.now() + 31 * 86_400_000));
    for (const id of [pub, local]) expect(await rt.repos.posts.byId(id)).toBeNull();

    // The follower's server is told: a Delete of the actor.
    await waitFor(
      () =>
        Promise.resolve(
          peer.received.some((r) => {
            if (r.method !== 'POST' || r.url !== '/inbox') return false;
            const a = JSON.parse(r.body.toString()) as { type?: string; object?: unknown };
            return a.type === 'Delete' && a.object === carol.id;
          }),
        ),
      15_000,
    );
  });
});

describe('no existence oracles', () => {
  let privatePost: string;
  let circlePost: string;
  let circle: string;
  beforeAll(async () => {
    circle = await created(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'secret' },
    });
    privatePost = await post(alice, alice.id, 'only me');
    circlePost = await post(alice, circle, 'only my circle');
  });

  test('an invisible post answers exactly like a missing one, for anonymous, local and remote viewers', async () => {
    const missing = 'post:0123456789abcdef01234567@social.test';
    for (const route of ['', '/replies', '/reacts']) {
      const path = (id: string) => `/posts/${encodeURIComponent(id)}${route}`;
      const viewers: Array<[string, (p: string) => Promise<{ status: number; body: unknown }>]> = [
        ['anonymous', (p) => api.get(p)],
        ['bob', (p) => api.get(p, { token: bob.token })],
        ['remote server', (p) => signedGet(p)],
      ];
      for (const [who, get] of viewers) {
        const gone = await get(path(missing));
        expect(gone.status).toBe(404);
        for (const id of [privatePost, circlePost]) {
          const hidden = await get(path(id));
          expect([who, route, hidden.status, hidden.body]).toEqual([who, route, gone.status, gone.body]);
        }
      }
    }
    expect((await api.get(`/posts/${encodeURIComponent(privatePost)}`, { token: alice.token })).status).toBe(
      200,
    );
  });

  test("the circle routes answer the spec's tiers; everything else treats an invisible circle as missing", async () => {
    const missing = 'circle:0123456789abcdef01234567@social.test';
    // Spec 4.2 rules 2 and 3 name 401/403 for the circle routes: a deliberate exception to the
    // existence-oracle rule (docs/security.md). Anonymous: 401 (detail of a missing one: 404).
    const status = async (get: (p: string) => Promise<{ status: number }>, id: string, sub = '') =>
      (await get(`/circles/${encodeURIComponent(id)}${sub}`)).status;
    const anonymous = (p: string) => api.get(p);
    const asBob = (p: string) => api.get(p, { token: bob.token });
    expect([await status(anonymous, circle), await status(anonymous, missing)]).toEqual([401, 404]);
    expect([await status(anonymous, circle, '/posts'), await status(anonymous, missing, '/posts')]).toEqual([
      401, 401,
    ]);
    // Authenticated (a local user, or another server's signature) but denied: 403; missing: 404.
    for (const get of [asBob, signedGet]) {
      expect([await status(get, circle), await status(get, missing)]).toEqual([403, 404]);
      expect([await status(get, circle, '/members'), await status(get, missing, '/members')]).toEqual([
        403, 404,
      ]);
    }
    expect([await status(asBob, circle, '/posts'), await status(asBob, missing, '/posts')]).toEqual([
      403, 404,
    ]);
    // Everything else names an invisible circle exactly like a missing one (404, same body).
    const del = (target: string) => outbox(api, bob, { type: 'Delete', target });
    const goneDel = await del('post:0123456789abcdef01234567@social.test');
    const hiddenDel = await del(privatePost);
    expect([hiddenDel.status, hiddenDel.body]).toEqual([goneDel.status, goneDel.body]);
    const addr = (to: string) =>
      outbox(api, bob, { type: 'Create', objectType: 'Post', to, object: { content: 'x' } });
    const goneAddr = await addr(missing);
    const hiddenAddr = await addr(circle);
    expect([hiddenAddr.status, hiddenAddr.body]).toEqual([goneAddr.status, goneAddr.body]);
  });

  test('postCount shown to others counts public posts only; the owner sees all of theirs', async () => {
    const dave = await registerActor(api, 'dave');
    await post(dave, '@public', 'one');
    await post(dave, dave.id, 'two (private)');
    await post(dave, '@social.test', 'three (server)');
    const count = async (token?: string) =>
      (
        await api.get<{ item: { postCount: number } }>(
          `/users/${encodeURIComponent(dave.id)}`,
          token ? { token } : {},
        )
      ).body.item.postCount;
    expect(await count()).toBe(1);
    expect(await count(bob.token)).toBe(1);
    expect(await count(dave.token)).toBe(3);
  });

  test('ids are not sequential: consecutive ids share no counter', async () => {
    const a = await post(alice, '@public', 'first');
    const b = await post(alice, '@public', 'second');
    const hex = (id: string) => /^post:([0-9a-f]{24})@social\.test$/.exec(id)![1]!;
    // An ObjectId's last six hex digits count up by one; random ids do not.
    const tail = (id: string) => parseInt(hex(id).slice(-6), 16);
    expect(Math.abs(tail(b) - tail(a))).not.toBe(1);
    expect(hex(a).slice(0, 16)).not.toBe(hex(b).slice(0, 16));
  });
});
