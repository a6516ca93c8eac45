/**
 * Curation (spec 4.5): /admin/sections and /admin/recommendations with the shared CRUD shape and
 * their validation, and the public Discover feed (GET /recommendations) checked against each
 * viewer at read time: anonymous, local and remote (a signing peer) viewers see what their tier
 * allows, and a target that turns private or is deleted disappears on the next request.
 */
import { signRequest } from '@agora/common/federation';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

const PEER = 'peer.test';
let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let aliceFollowing: string;
const enc = encodeURIComponent;
const DOMAIN = '@social.test';

type Row = Record<string, unknown> & { id: string };
interface Shelf {
  id: string;
  name: string;
  items: Array<Row & { refType: string }>;
}
interface Discover {
  type: string;
  totalItems: number;
  orderedItems: Shelf[];
  sections: Shelf[];
}

const ref = { publicPost: '', serverPost: '', privatePost: '', circle: '', page: '', firstRec: '' };
const section = { picks: '', locals: '' };

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'disc_alice');
  aliceFollowing = (await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token })).body
    .user.following;
  const post = async (to: string, content: string) =>
    (await outbox(api, alice, { type: 'Create', objectType: 'Post', to, object: { content } })).body
      .createdId!;
  ref.publicPost = await post('@public', 'a public post worth reading');
  ref.serverPost = await post(DOMAIN, 'for the locals');
  ref.privatePost = await post(aliceFollowing, 'for my friends');
  ref.circle = (
    await outbox(api, alice, {
      type: 'Create',
      objectType: 'Circle',
      to: '@public',
      object: { name: 'Good reads' },
    })
  ).body.createdId!;
  ref.page = (
    await call<{ page: Row }>('POST', '/admin/pages', { title: 'Welcome', source: 'Hello' })
  ).body.page.id;
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
  return api.call<T>(method, path, { token: admin, ...(body !== undefined ? { body } : {}) });
}
const discover = (token?: string) => api.get<Discover>('/recommendations', token ? { token } : {});
const shown = (d: { body: Discover }) => d.body.orderedItems.flatMap((s) => s.items.map((i) => i.id));
function remoteDiscover() {
  const headers = signRequest({
    method: 'GET',
    url: `${server.url}/recommendations`,
    keyId: peer.keyId,
    privateKeyPem: peer.privateKeyPem,
  });
  return api.get<Discover>('/recommendations', { headers });
}

describe('/admin/sections', () => {
  test('create, list in order, update; bad input writes nothing', async () => {
    const a = await call<{ section: Row }>('POST', '/admin/sections', { name: 'Staff picks', order: 2 });
    expect(a.status).toBe(201);
    expect(a.body.section).toMatchObject({
      name: 'Staff picks',
      order: 2,
      to: '@public',
      active: true,
      summary: '',
    });
    section.picks = a.body.section.id;
    section.locals = (
      await call<{ section: Row }>('POST', '/admin/sections', { name: 'Local news', order: 1, to: DOMAIN })
    ).body.section.id;
    const listed = await call<{ orderedItems: Row[] }>('GET', '/admin/sections');
    expect(listed.body.orderedItems.map((s) => s.id)).toEqual([section.locals, section.picks]);
    const upd = await call<{ section: Row }>('PATCH', `/admin/sections/${enc(section.picks)}`, {
      summary: 'Chosen by us',
    });
    expect(upd.body.section).toMatchObject({ summary: 'Chosen by us' });
    for (const body of [
      {},
      { name: 'x', order: 'first' },
      { name: 'x', active: 'yes' },
      { name: 'x', to: aliceFollowing },
    ]) {
      const res = await call<{ error: string }>('POST', '/admin/sections', body);
      expect(res.status).toBe(400);
    }
    expect(
      (await call<{ error: string }>('PATCH', `/admin/sections/${enc(section.picks)}`, { order: 'x' })).body
        .error,
    ).toContain('order');
    expect(
      (await call<{ totalItems: number }>('GET', '/admin/sections?deleted=include')).body.totalItems,
    ).toBe(2);
    expect(
      (await call('GET', `/admin/sections/${enc('section:000000000000000000000000@social.test')}`)).status,
    ).toBe(404);
  });
});

describe('/admin/recommendations', () => {
  test('ref must be a live, non-private post, circle, group, bookmark or page; section must exist', async () => {
    const bad: Array<[unknown, string]> = [
      [{ ref: alice.id, section: section.picks }, 'ref'],
      [{ ref: DOMAIN, section: section.picks }, 'ref'],
      [{ ref: 'post:000000000000000000000000@social.test', section: section.picks }, 'ref'],
      [{ ref: ref.privatePost, section: section.picks }, 'ref'],
      [{ ref: ref.publicPost, section: 'section:000000000000000000000000@social.test' }, 'section'],
      [{ ref: ref.publicPost, section: section.picks, order: 'first' }, 'order'],
      [{ section: section.picks }, 'ref'],
    ];
    for (const [body, field] of bad) {
      const res = await call<{ error: string }>('POST', '/admin/recommendations', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.error).toContain(field);
    }
    expect(
      (await call<{ totalItems: number }>('GET', '/admin/recommendations?deleted=include')).body.totalItems,
    ).toBe(0);
  });

  test('entries record the target type and tier; list filters; update', async () => {
    const add = async (r: string, s: string, order: number) =>
      (
        await call<{ recommendation: Row }>('POST', '/admin/recommendations', {
          ref: r,
          section: s,
          order,
          note: 'try it',
        })
      ).body.recommendation;
    const first = await add(ref.publicPost, section.picks, 1);
    expect(first).toMatchObject({
      ref: ref.publicPost,
      refType: 'Post',
      visibility: 'public',
      section: section.picks,
    });
    expect(await add(ref.serverPost, section.picks, 2)).toMatchObject({ visibility: 'server' });
    expect(await add(ref.circle, section.picks, 3)).toMatchObject({
      refType: 'Circle',
      visibility: 'public',
    });
    expect(await add(ref.page, section.locals, 1)).toMatchObject({ refType: 'Page' });
    ref.firstRec = first.id;
    const byType = await call<{ orderedItems: Row[] }>('GET', '/admin/recommendations?refType=Circle');
    expect(byType.body.orderedItems.map((r) => r.ref)).toEqual([ref.circle]);
    // The list names each live target in words, so the dashboard never shows a bare ref.
    expect(byType.body.orderedItems[0]!.target).toMatchObject({
      id: ref.circle,
      type: 'Circle',
      name: 'Good reads',
    });
    const posts = await call<{ orderedItems: Row[] }>('GET', '/admin/recommendations?refType=Post');
    expect(posts.body.orderedItems.map((r) => r.target)).toContainEqual(
      expect.objectContaining({
        id: ref.publicPost,
        summary: 'a public post worth reading',
        actor: expect.objectContaining({ id: alice.id }) as unknown,
      }),
    );
    const bySection = await call<{ orderedItems: Row[] }>(
      'GET',
      `/admin/recommendations?section=${enc(section.locals)}`,
    );
    expect(bySection.body.orderedItems.map((r) => r.ref)).toEqual([ref.page]);
    expect((await call('GET', '/admin/recommendations?refType=User')).status).toBe(400);
    const upd = await call<{ recommendation: Row }>('PATCH', `/admin/recommendations/${enc(first.id)}`, {
      note: 'a classic',
    });
    expect(upd.body.recommendation).toMatchObject({ note: 'a classic' });
    expect(
      (
        await call('PATCH', `/admin/recommendations/${enc(first.id)}`, {
          section: 'section:000000000000000000000000@social.test',
        })
      ).status,
    ).toBe(400);
  });
});

describe('GET /recommendations (Discover)', () => {
  test('sections in order, each entry checked against the viewer: anonymous, local and remote', async () => {
    const local = await discover(alice.token);
    expect(local.status).toBe(200);
    expect(local.body.type).toBe('OrderedCollection');
    expect(local.body.orderedItems.map((s) => s.id)).toEqual([section.locals, section.picks]);
    expect(local.body.sections).toEqual(local.body.orderedItems);
    const picks = local.body.orderedItems.find((s) => s.id === section.picks)!;
    expect(picks.items.map((i) => i.id)).toEqual([ref.publicPost, ref.serverPost, ref.circle]);
    expect(picks.items[0]).toMatchObject({ refType: 'Post', note: 'a classic', actor: { id: alice.id } });

    const anon = await discover();
    expect(anon.body.orderedItems.map((s) => s.id)).toEqual([section.picks]);
    expect(shown(anon)).toEqual([ref.publicPost, ref.circle]);

    const remote = await remoteDiscover();
    expect(remote.status).toBe(200);
    expect(shown(remote)).toEqual([ref.publicPost, ref.circle]);
  });

  test('a target that turns private or is deleted disappears on the next request', async () => {
    expect(
      (await outbox(api, alice, { type: 'Update', target: ref.publicPost, object: { to: aliceFollowing } }))
        .status,
    ).toBe(201);
    expect(shown(await discover(alice.token))).not.toContain(ref.publicPost);
    expect(shown(await discover())).toEqual([ref.circle]);
    expect((await outbox(api, alice, { type: 'Delete', target: ref.circle })).status).toBe(201);
    const anon = await discover();
    expect(anon.body.orderedItems).toEqual([]);
  });

  test('inactive and deleted entries and sections are not shown; a section full delete removes its entries', async () => {
    expect(shown(await discover(alice.token))).toEqual([ref.page, ref.serverPost]);
    const serverRec = (
      await call<{ orderedItems: Row[] }>('GET', '/admin/recommendations')
    ).body.orderedItems.find((r) => r.ref === ref.serverPost)!;
    await call('PATCH', `/admin/recommendations/${enc(serverRec.id)}`, { active: false });
    expect(shown(await discover(alice.token))).toEqual([ref.page]);
    expect((await call('DELETE', `/admin/sections/${enc(section.locals)}`)).status).toBe(200);
    expect((await discover(alice.token)).body.orderedItems).toEqual([]);
    expect((await call('POST', `/admin/sections/${enc(section.locals)}/restore`)).status).toBe(200);
    expect(shown(await discover(alice.token))).toEqual([ref.page]);

    const pageRec = (
      await call<{ orderedItems: Row[] }>('GET', `/admin/recommendations?section=${enc(section.locals)}`)
    ).body.orderedItems[0]!;
    expect((await call('DELETE', `/admin/recommendations/${enc(pageRec.id)}`)).status).toBe(200);
    expect((await call('DELETE', `/admin/recommendations/${enc(pageRec.id)}`)).status).toBe(409);
    expect(shown(await discover(alice.token))).toEqual([]);
    expect((await call('POST', `/admin/recommendations/${enc(pageRec.id)}/restore`)).status).toBe(200);

    const full = await call('DELETE', `/admin/sections/${enc(section.locals)}?fullDelete=true`);
    expect(full.body).toEqual({ ok: true, hardDeleted: true });
    expect((await call('GET', `/admin/recommendations/${enc(pageRec.id)}`)).status).toBe(404);
    expect((await call('GET', `/admin/sections/${enc(section.locals)}`)).status).toBe(404);
    const left = await call<{ orderedItems: Row[] }>('GET', '/admin/recommendations?deleted=include');
    expect(left.body.orderedItems.every((r) => r.section === section.picks)).toBe(true);
  });
});
