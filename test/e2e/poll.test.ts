/**
 * The poll worker (decisions.md §6): a server whose user is a member of a local circle is pulled
 * with a signed `GET /outbox?from=&to=&since=`; what it answers for its own domain becomes posts
 * in the local readers' timelines, items it answers for other domains are dropped, later pulls
 * ask only for what is new (`since`) and its tombstones remove the posts again. Each test adds the
 * peer's items it needs and removes only its own, so the tests pass in any order.
 */
import { memoryReplayGuard, verifyRequest } from '@agora/common/federation';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { json, serveNodeInfo, startSigningPeer, type SigningPeer } from '../harness/fake-peer';

const PEER = 'peer.test';
const CAROL = `@carol@${PEER}`;
const POST = `http://${PEER}/posts/pulled-1`;
let peer: SigningPeer;
let server: TestServer;
let bob: Actor;
let following = '';
/** What the peer's outbox answers beyond POST and the two it must not be trusted with. */
const extraItems: Array<Record<string, unknown>> = [];
const tombstones: string[] = [];
/** When set, the first page names a next page (`next`), answered for `before=<that cursor>`. */
let nextPage: { cursor: string; items: Array<Record<string, unknown>> } | undefined;

const item = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'Note',
  actorId: CAROL,
  attributedTo: { id: CAROL, name: 'Carol' },
  body: '<p>pulled <em>in</em></p>',
  to: '@public',
  visibility: 'Public',
  publishedAt: '2026-11-01T10:00:00.000Z',
  ...extra,
});

const pulls = () => peer.received.filter((r) => r.method === 'GET' && r.url.startsWith('/outbox'));

async function timeline(): Promise<string[]> {
  const res = await client(server.url).get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${following}/posts`,
    {
      token: bob.token,
    },
  );
  if (res.status !== 200) throw new Error(`bob's timeline: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
}

beforeAll(async () => {
  peer = await startSigningPeer(PEER, (req, res) => {
    // An Agora server: its NodeInfo says so, or it would not be polled.
    if (serveNodeInfo(PEER, req, res)) return;
    if (!req.url.startsWith('/outbox')) return json(res, 404, { error: 'Not found' });
    const before = new URL(req.url, 'http://x').searchParams.get('before');
    if (nextPage && before === nextPage.cursor)
      return json(res, 200, { type: 'OrderedCollection', items: nextPage.items, tombstones });
    json(
      res,
      200,
      {
        type: 'OrderedCollection',
        items: [
          item(POST),
          ...extraItems,
          item('http://elsewhere.test/posts/not-theirs'),
          item(`http://${PEER}/posts/circle-only`, { to: 'circle:x@peer.test', visibility: 'Audience' }),
        ],
        tombstones,
        ...(nextPage ? { next: nextPage.cursor } : {}),
      },
      'application/json',
    );
  });
  server = await bootServer({ ...peer.serverEnv, FEDERATION_POLL_SECONDS: '1' });
  const api = client(server.url);
  bob = await registerActor(api, 'bob');
  following = (await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token })).body.user
    .following;
  expect((await outbox(api, bob, { type: 'Follow', target: CAROL })).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test("what the followed author's server answers for itself reaches the follower's timeline", async () => {
  await waitFor(async () => (await timeline()).includes(POST), 15_000);
  const ids = await timeline();
  expect(ids).not.toContain('http://elsewhere.test/posts/not-theirs');
  expect(ids).not.toContain(`http://${PEER}/posts/circle-only`);
  const [first] = pulls();
  const query = new URL(first!.url, 'http://x').searchParams;
  expect(query.getAll('from')).toEqual([CAROL]);
  expect(query.getAll('to')).toEqual([bob.id]);
  expect(query.get('since')).toBeNull();
  // Signed with the key this server publishes on its server actor.
  const actor = await client(server.url).get<{ item: { publicKey: { id: string; publicKeyPem: string } } }>(
    `/users/${encodeURIComponent('@social.test')}`,
  );
  const verified = await verifyRequest({
    method: 'GET',
    path: first!.url,
    headers: first!.headers,
    resolveKey: (keyId) => {
      expect(keyId).toBe(actor.body.item.publicKey.id);
      return Promise.resolve({
        publicKeyPem: actor.body.item.publicKey.publicKeyPem,
        ownerDomain: 'social.test',
      });
    },
    replay: memoryReplayGuard(),
  });
  expect(verified.signerDomain).toBe('social.test');
});

test('later pulls ask for what is new, and tombstones remove the post', async () => {
  const own = `http://${PEER}/posts/pulled-2`;
  extraItems.push(item(own));
  await waitFor(async () => (await timeline()).includes(own), 15_000);
  const before = pulls().length;
  await waitFor(() => Promise.resolve(pulls().length > before), 10_000);
  expect(new URL(pulls().at(-1)!.url, 'http://x').searchParams.get('since')).toMatch(/^\d{4}-\d\d-\d\dT/);
  tombstones.push(own, 'http://elsewhere.test/posts/other');
  await waitFor(async () => !(await timeline()).includes(own), 15_000);
  expect(await timeline()).toContain(POST);
});

test('a pull follows `next` (as `before`) to the pages after the first, with the same `since`', async () => {
  const older = `http://${PEER}/posts/on-page-2`;
  nextPage = { cursor: 'cGFnZS0y', items: [item(older, { publishedAt: '2026-10-01T10:00:00.000Z' })] };
  try {
    await waitFor(async () => (await timeline()).includes(older), 15_000);
    const paged = pulls()
      .map((r) => new URL(r.url, 'http://x').searchParams)
      .filter((q) => q.get('before') === nextPage!.cursor);
    expect(paged.length).toBeGreaterThan(0);
    expect(paged[0]!.getAll('from')).toEqual([CAROL]);
    expect(paged[0]!.get('since')).toMatch(/^\d{4}-\d\d-\d\dT/);
  } finally {
    nextPage = undefined;
  }
});

test('a pulled post keeps its content warning, sensitive flag and image descriptions (ADR 0021)', async () => {
  const id = `http://${PEER}/posts/pulled-warned`;
  extraItems.push(
    item(id, {
      contentWarning: 'eye strain',
      sensitive: true,
      media: [{ url: `http://${PEER}/files/x.png`, mediaType: 'image/png', description: 'Bright stripes' }],
    }),
  );
  try {
    await waitFor(async () => (await timeline()).includes(id), 15_000);
    const res = await client(server.url).get<{ orderedItems: Array<Record<string, unknown>> }>(
      `/circles/${following}/posts`,
      { token: bob.token },
    );
    expect(res.body.orderedItems.find((p) => p.id === id)).toMatchObject({
      contentWarning: 'eye strain',
      sensitive: true,
      media: [{ url: `http://${PEER}/files/x.png`, mediaType: 'image/png', description: 'Bright stripes' }],
    });
  } finally {
    extraItems.splice(
      extraItems.findIndex((x) => x.id === id),
      1,
    );
  }
});
