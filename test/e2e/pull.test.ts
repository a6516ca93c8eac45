/**
 * GET /outbox pulls (behaviour-notes §3.16 as fixed by decisions.md §6): a batch pull signed by
 * a peer answers its users what they may see (public posts, and circle posts only for the peer's
 * users in those circles, with `recipients`) plus `tombstones`; unsigned batch pulls and
 * recipients of other servers are refused; the simple forms answer public posts only.
 */
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { signRequest } from '@agora/common/federation';

const PEER = 'peer.test';
const CAROL = `@carol@${PEER}`;
let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
const ids: Record<string, string> = {};
let since = '';

type Pulled = {
  items?: Array<{ id: string }>;
  recipients?: Array<{ itemId: string; to: string[] }>;
  tombstones?: string[];
  error?: string;
};

function signedGet(path: string) {
  const headers = signRequest({
    method: 'GET',
    url: `${server.url}${path}`,
    keyId: peer.keyId,
    privateKeyPem: peer.privateKeyPem,
  });
  return api.get<Pulled>(path, { headers });
}

async function post(to: string, content: string) {
  const res = await outbox(api, alice, { type: 'Create', objectType: 'Post', to, object: { content } });
  expect(res.status).toBe(201);
  return res.body.createdId!;
}

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  const circle = async (name: string, members: string[]) => {
    const id = (
      await outbox(api, alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name } })
    ).body.createdId!;
    if (members.length) await outbox(api, alice, { type: 'Add', target: id, object: members });
    return id;
  };
  const withCarol = await circle('Abroad', [CAROL]);
  ids.abroad = withCarol;
  const without = await circle('Home', []);
  ids.peerServer = await circle('The peer', [`@${PEER}`]);
  ids.elsewhere = await circle('Elsewhere', ['@eve@elsewhere.test']);
  ids.public = await post('@public', 'for everyone');
  ids.forCarol = await post(withCarol, 'for the circle with carol');
  ids.notForCarol = await post(without, 'for the circle without carol');
  ids.server = await post('@social.test', 'for this server');
  ids.forPeer = await post(ids.peerServer, 'for the peer server');
  ids.forEve = await post(ids.elsewhere, 'for eve on another server');
  since = new Date(Date.now() - 60_000).toISOString();
  ids.gone = await post('@public', 'soon deleted');
  expect((await outbox(api, alice, { type: 'Delete', target: ids.gone })).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

const batch = (extra = '') =>
  `/outbox?from=${encodeURIComponent(alice.id)}&to=${encodeURIComponent(CAROL)}&since=${encodeURIComponent(since)}${extra}`;

test("a signed batch pull answers what the peer's users may see, with recipients and tombstones", async () => {
  const res = await signedGet(batch());
  expect(res.status).toBe(200);
  const got = (res.body.items ?? []).map((i) => i.id);
  expect(got).toEqual(expect.arrayContaining([ids.public, ids.forCarol]));
  expect(got).not.toContain(ids.notForCarol);
  expect(got).not.toContain(ids.server);
  expect(got).not.toContain(ids.gone);
  expect(got).not.toContain(ids.forPeer);
  expect(got).not.toContain(ids.forEve);
  // A circle item names its circle as the puller caches it: owner, name, members' revision.
  expect(res.body.recipients).toEqual(
    expect.arrayContaining([
      {
        itemId: ids.forCarol,
        to: [CAROL],
        circle: { id: ids.abroad, actorId: alice.id, name: 'Abroad', rev: 1 },
      },
      { itemId: ids.public, to: [CAROL] },
    ]),
  );
  expect(res.body.tombstones).toEqual([ids.gone]);
});

test('a circle holding the peer server is answered to it by name; none of its users is named for it', async () => {
  const asServer = await signedGet(
    `/outbox?from=${encodeURIComponent(alice.id)}&to=${encodeURIComponent(`@${PEER}`)}`,
  );
  expect(asServer.status).toBe(200);
  const got = (asServer.body.items ?? []).map((i) => i.id);
  expect(got).toContain(ids.forPeer);
  for (const hidden of [ids.forCarol, ids.notForCarol, ids.server, ids.forEve])
    expect(got).not.toContain(hidden);
  expect(asServer.body.recipients?.find((r) => r.itemId === ids.forPeer)).toMatchObject({
    to: [`@${PEER}`],
    circle: { id: ids.peerServer },
  });
});

test('batch pulls must be signed, and only for the signing server’s users', async () => {
  const unsigned = await api.get<Pulled>(batch());
  expect(unsigned.status).toBe(401);
  const foreign = await signedGet(
    `/outbox?from=${encodeURIComponent(alice.id)}&to=${encodeURIComponent('@mallory@elsewhere.test')}`,
  );
  expect(foreign.status).toBe(403);
  expect((await signedGet(`${batch()}&since=yesterday`)).status).toBe(400);
});

test('without recipients, anyone gets public posts only', async () => {
  for (const path of [`/outbox?from=${encodeURIComponent(alice.id)}`, '/outbox']) {
    const res = await api.get<Pulled>(path);
    expect(res.status).toBe(200);
    const got = (res.body.items ?? []).map((i) => i.id);
    expect(got).toContain(ids.public);
    for (const hidden of [ids.forCarol, ids.notForCarol, ids.server, ids.gone])
      expect(got).not.toContain(hidden);
  }
});
