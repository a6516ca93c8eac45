/**
 * Nothing lost, fast recovery (issue 23, item 4; docs/federation.md, "Held deliveries"). A fake
 * peer follows alice and then answers 503 while she posts, edits and deletes: its circuit opens
 * and her deliveries are held in the database. When the peer answers again, everything held flows
 * at once, in the order it was planned (a post's Create before its Update and its Delete), each
 * activity accepted exactly once, long before the circuit's cool-down (an hour here) would end.
 * The server learns the peer is back from a probe of the open circuit, or (probes an hour apart)
 * from a signed request the peer sends it, or from a pull of the peer that succeeds.
 */
import { randomUUID } from 'node:crypto';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { json, serveNodeInfo, startSigningPeer, type Received, type SigningPeer } from '../harness/fake-peer';

interface Scenario {
  peer: SigningPeer;
  server: TestServer;
  alice: Actor;
  /** Whether the peer's inbox is up. */
  up: boolean;
  /** Deliveries the peer accepted (2xx), in arrival order. */
  accepted: Array<{ id: string; type: string; object: string; at: number }>;
}

const activityOf = (r: Received) =>
  JSON.parse(r.body.toString()) as { id: string; type: string; object?: string | { id?: string } };
const objectOf = (a: ReturnType<typeof activityOf>) =>
  typeof a.object === 'string' ? a.object : (a.object?.id ?? '');

async function scenario(domain: string, env: Record<string, string>): Promise<Scenario> {
  const s = { up: true, accepted: [] } as unknown as Scenario;
  s.peer = await startSigningPeer(domain, (req, res) => {
    if (serveNodeInfo(domain, req, res)) return;
    // A pull (GET /outbox): nothing new, while the peer is up.
    if (req.method === 'GET' && req.url.startsWith('/outbox?'))
      return s.up
        ? json(res, 200, { items: [], tombstones: [] }, 'application/json')
        : res.writeHead(503).end();
    if (req.method !== 'POST' || req.url !== '/inbox') return json(res, 404, { error: 'Not found' });
    if (!s.up) return res.writeHead(503).end();
    const a = activityOf(req);
    s.accepted.push({ id: a.id, type: a.type, object: objectOf(a), at: Date.now() });
    res.writeHead(202).end();
  });
  s.server = await bootServer({
    ...s.peer.serverEnv,
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
    // Far longer than any wait below: a delivery before it ends proves an early release.
    FEDERATION_BREAKER_COOLDOWN_SECONDS: '3600',
    ...env,
  });
  s.alice = await registerActor(client(s.server.url), 'alice');
  const follow = {
    id: `http://${domain}/activities/follow-${randomUUID()}`,
    type: 'Follow',
    actorId: `@bob@${domain}`,
    actor: { id: `@bob@${domain}`, inbox: `http://${domain}/inbox` },
    object: s.alice.id,
  };
  expect((await s.peer.send(`${s.server.url}/inbox`, follow)).status).toBe(202);
  const repos = s.server.services[0]!.runtime!.repos;
  await waitFor(() => repos.followers.isFollower(s.alice.id, `@bob@${domain}`), 10_000);
  return s;
}

async function close(s: Scenario | undefined) {
  await s?.server.close();
  await s?.peer.close();
}

const repos = (s: Scenario) => s.server.services[0]!.runtime!.repos;
const fed = (s: Scenario) => s.server.services.find((x) => x.name === 'federation')!.runtime!;

async function write(s: Scenario, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(client(s.server.url), s.alice, activity);
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId ?? '';
}

/**
 * While the peer is down: ten public posts, an edit of the third, a delete of the fifth. Resolves
 * once the circuit is open and all twelve deliveries are held (recorded state). Returns the ids.
 */
async function postWhileDown(s: Scenario, domain: string): Promise<string[]> {
  s.up = false;
  const ids: string[] = [];
  for (let i = 0; i < 10; i++)
    ids.push(
      await write(s, { type: 'Create', objectType: 'Post', to: '@public', object: { content: `n${i}` } }),
    );
  await write(s, { type: 'Update', target: ids[2], object: { content: 'n2 edited' } });
  await write(s, { type: 'Delete', target: ids[4] });
  await waitFor(async () => (await fed(s).federation.breaker.inspect(domain)).state === 'open', 30_000);
  await waitFor(async () => (await repos(s).parkedDeliveries.count(domain, 'held')) === 12, 30_000);
  return ids;
}

/** The open circuit's first probe has failed (probes an hour apart): nothing else will probe. */
async function firstProbeFailed(s: Scenario, domain: string) {
  const next = async () => (await repos(s).remoteServers.byDomain(domain))?.nextProbeAt?.getTime() ?? 0;
  await waitFor(async () => (await next()) > Date.now() + 1800_000, 30_000);
}

/** Every planned activity arrived once, in order per post, and the posts in the order written. */
function expectAllInOrder(s: Scenario, ids: string[]) {
  const mine = s.accepted.filter((a) => ids.includes(a.object));
  const byKind = (type: string) => mine.filter((a) => a.type === type).map((a) => a.object);
  expect(byKind('Create')).toEqual(ids);
  expect(byKind('Update')).toEqual([ids[2]]);
  expect(byKind('Delete')).toEqual([ids[4]]);
  expect(new Set(mine.map((a) => a.id)).size).toBe(mine.length);
  const at = (type: string, id: string) => mine.findIndex((a) => a.type === type && a.object === id);
  expect(at('Create', ids[2]!)).toBeLessThan(at('Update', ids[2]!));
  expect(at('Create', ids[4]!)).toBeLessThan(at('Delete', ids[4]!));
}

describe('the probe of an open circuit finds the peer back', () => {
  const PEER = 'probed.test';
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario(PEER, { FEDERATION_PROBE_SECONDS: '2' });
  });
  afterAll(() => close(s));

  test('held deliveries flow at once, in order, once each', async () => {
    const ids = await postWhileDown(s, PEER);
    // The circuit is recorded open on the peer's row until an hour from now.
    const row = await repos(s).remoteServers.byDomain(PEER);
    expect(row?.circuit?.state).toBe('open');
    expect(row!.circuit!.until!.getTime()).toBeGreaterThan(Date.now() + 3000_000);

    const back = Date.now();
    s.up = true;
    await waitFor(async () => (await repos(s).parkedDeliveries.count(PEER, 'held')) === 0, 60_000);
    expectAllInOrder(s, ids);
    const drained = Math.max(...s.accepted.map((a) => a.at)) - back;
    // Reported, not asserted on: the bound is the wait above, far inside the hour of cool-down.
    console.info(`12 held deliveries drained ${drained} ms after the peer came back`);
    expect(await fed(s).federation.breaker.inspect(PEER)).toEqual({ state: 'closed', failures: 0 });
    expect((await repos(s).remoteServers.byDomain(PEER))?.circuit?.state).toBe('closed');
    expect(await repos(s).parkedDeliveries.count(PEER, 'dead')).toBe(0);
  }, 120_000);
});

describe('a request from the peer tells the server it is back', () => {
  const PEER = 'talking.test';
  let s: Scenario;
  beforeAll(async () => {
    // Probes an hour apart (the first one runs as the circuit opens, while the peer is down).
    s = await scenario(PEER, { FEDERATION_PROBE_SECONDS: '3600' });
  });
  afterAll(() => close(s));

  test('a signed inbox request from the peer releases what is held for it', async () => {
    const ids = await postWhileDown(s, PEER);
    await firstProbeFailed(s, PEER);
    s.up = true;
    // Nothing but the peer's request can release them now (cool-down and probes an hour away).
    const note = {
      id: `http://${PEER}/activities/${randomUUID()}`,
      type: 'Create',
      actorId: `@bob@${PEER}`,
      to: ['@public'],
      object: { id: `http://${PEER}/notes/${randomUUID()}`, type: 'Note', content: 'back', to: ['@public'] },
    };
    expect((await s.peer.send(`${s.server.url}/inbox`, note)).status).toBe(202);
    await waitFor(async () => (await repos(s).parkedDeliveries.count(PEER, 'held')) === 0, 60_000);
    expectAllInOrder(s, ids);
    expect((await repos(s).remoteServers.byDomain(PEER))?.lastSeenVia).toBeDefined();
  }, 120_000);
});

describe('a successful pull of the peer finds it back', () => {
  const PEER = 'pulled.test';
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario(PEER, { FEDERATION_PROBE_SECONDS: '3600', FEDERATION_POLL_SECONDS: '1' });
  });
  afterAll(() => close(s));

  test('the poll worker pulls the peer once it is up and releases what is held for it', async () => {
    const ids = await postWhileDown(s, PEER);
    await firstProbeFailed(s, PEER);
    const server = () => repos(s).remoteServers.byDomain(PEER);
    s.up = true;
    expect(await repos(s).parkedDeliveries.count(PEER, 'held')).toBe(12);
    // A member of the peer in one of alice's circles makes the peer a server to pull.
    await write(s, {
      type: 'Create',
      objectType: 'Circle',
      object: { name: 'far', members: [`@bob@${PEER}`] },
    });
    await waitFor(async () => (await repos(s).parkedDeliveries.count(PEER, 'held')) === 0, 60_000);
    expectAllInOrder(s, ids);
    // The pull succeeded (the row's last contact is written at most every 30 s, so it may still
    // name the Follow of the scenario's start).
    expect(await server()).toMatchObject({ errorCount: 0, lastError: null });
    expect((await server())?.lastPolledAt).toBeInstanceOf(Date);
  }, 120_000);
});
