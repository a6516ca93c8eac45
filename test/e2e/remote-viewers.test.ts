/**
 * Remote viewers (spec 4.2 rule 1, decisions.md §6): a request HTTP-signed by another server is
 * read as that server. GET /circles shows it `@public` circles only, as for anonymous callers,
 * while local users also see `@<domain>` circles; a circle that holds the server as a member
 * opens to it. Signatures that do not verify are refused, never read as anonymous.
 */
import { signRequest } from '@agora/common/federation';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';

const PEER = 'peer.test';

let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
const circles: Record<'pub' | 'server' | 'private' | 'withPeer', string> = {
  pub: '',
  server: '',
  private: '',
  withPeer: '',
};

/** Signs a GET as the peer server would. */
function signed(path: string, overrides: { date?: string; signPath?: string } = {}) {
  const headers = signRequest({
    method: 'GET',
    url: `${server.url}${overrides.signPath ?? path}`,
    keyId: peer.keyId,
    privateKeyPem: peer.privateKeyPem,
    ...(overrides.date ? { headers: { date: overrides.date } } : {}),
  });
  return { ...headers, ...(overrides.date ? { date: overrides.date } : {}) };
}

const names = (body: { orderedItems?: Array<{ id: string }> }) => (body.orderedItems ?? []).map((c) => c.id);

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  const make = async (name: string, to: string) =>
    (await outbox(api, alice, { type: 'Create', objectType: 'Circle', to, object: { name } })).body
      .createdId!;
  circles.pub = await make('Open', '@public');
  circles.server = await make('Locals', '@social.test');
  circles.private = await make('Mine', alice.id);
  circles.withPeer = await make('Friends abroad', alice.id);
  expect(
    (await outbox(api, alice, { type: 'Add', target: circles.withPeer, object: `@${PEER}` })).status,
  ).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test('GET /circles: anonymous and remote viewers see @public circles only; local users also @<domain>', async () => {
  const anonymous = names((await api.get('/circles?limit=100')).body);
  const local = names((await api.get('/circles?limit=100', { token: alice.token })).body);
  const remoteRes = await api.get('/circles?limit=100', { headers: signed('/circles?limit=100') });
  expect(remoteRes.status).toBe(200);
  const remote = names(remoteRes.body);
  expect(anonymous).toContain(circles.pub);
  expect(anonymous).not.toContain(circles.server);
  expect(local).toEqual(expect.arrayContaining([circles.pub, circles.server]));
  expect(remote).toContain(circles.pub);
  expect(remote).not.toContain(circles.server);
  for (const list of [anonymous, local, remote]) {
    expect(list).not.toContain(circles.private);
    expect(list).not.toContain(circles.withPeer);
  }
  // The peer fetched its key once, through the host map, by its domain name.
  expect(peer.received.filter((r) => r.url === '/actor').map((r) => r.headers.host)).toEqual([PEER]);
});

test('GET /circles/:id for the remote server: open when it is a member, 403 (authenticated, denied) otherwise', async () => {
  // Each read its own query string: one signature (same path, same second) is accepted once.
  let n = 0;
  const get = (id: string) => {
    const path = `/circles/${id}?n=${++n}`;
    return api.get(path, { headers: signed(path) });
  };
  const member = await get(circles.withPeer);
  expect(member.status).toBe(200);
  expect(member.body.item).toMatchObject({ id: circles.withPeer, isMember: true, isOwner: false });
  expect((await get(circles.pub)).status).toBe(200);
  // Spec 4.2 rule 2: a signed request is authenticated, so a denial is 403; missing stays 404.
  expect((await get(circles.server)).status).toBe(403);
  expect((await get(circles.private)).status).toBe(403);
  expect((await get('circle:0123456789abcdef01234567@social.test')).status).toBe(404);
  // Membership changes reach the (cached) remote viewer at once.
  const removed = await outbox(api, alice, { type: 'Remove', target: circles.withPeer, object: `@${PEER}` });
  expect(removed.status).toBe(201);
  expect((await get(circles.withPeer)).status).toBe(403);
  // (The list form: the gateway would take the first Add's exact body for a duplicate.)
  const added = await outbox(api, alice, { type: 'Add', target: circles.withPeer, object: [`@${PEER}`] });
  expect(added.status).toBe(201);
  expect((await get(circles.withPeer)).status).toBe(200);
});

test('a signed request is not a user: user-only routes of a circle it can see answer 401', async () => {
  const path = `/circles/${circles.pub}/posts`;
  expect((await api.get(path, { headers: signed(path) })).status).toBe(401);
});

test('signatures that do not verify are refused with 401, never read as anonymous', async () => {
  // Signed for another path.
  const moved = await api.get('/circles', { headers: signed('/circles', { signPath: '/circles?limit=1' }) });
  expect(moved.status).toBe(401);
  // Replayed: the same signature twice.
  const once = signed('/circles?page=1');
  expect((await api.get('/circles?page=1', { headers: once })).status).toBe(200);
  const replay = await api.get('/circles?page=1', { headers: once });
  expect(replay.status).toBe(401);
  // A Date two hours old.
  const stale = new Date(Date.now() - 2 * 3600_000).toUTCString();
  expect((await api.get('/circles', { headers: signed('/circles', { date: stale }) })).status).toBe(401);
  // A key the peer does not publish.
  const unknown = signRequest({
    method: 'GET',
    url: `${server.url}/circles`,
    keyId: `http://${PEER}/nobody#main-key`,
    privateKeyPem: peer.privateKeyPem,
  });
  expect((await api.get('/circles', { headers: unknown })).status).toBe(401);
  // Garbage in the header is refused with a message that says why.
  const garbage = await api.get('/circles', {
    headers: { signature: 'not a signature', date: new Date().toUTCString() },
  });
  expect(garbage.status).toBe(401);
  expect(garbage.body.error).toMatch(/Malformed Signature header/);
});
