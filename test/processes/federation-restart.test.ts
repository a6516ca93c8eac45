/**
 * Deliveries survive a crash of the federation process in the cluster (issue 23, item 4;
 * docs/federation.md, "Held deliveries"): the services run as separate processes on RabbitMQ,
 * Redis and one SQLite file (test/harness/cluster.ts). A fake peer follows alice and answers 503:
 * her first posts are held in the database. The federation process is killed (SIGKILL) and she
 * posts more while it is down: their events wait in RabbitMQ's durable planner queue. Started
 * again, the federation process plans those, finds what was held, and once the peer answers
 * every post arrives, once each.
 */
import { randomUUID } from 'node:crypto';
import { createStores, openDatabase, type Database, type Stores } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { registerActor, type Actor } from '../harness/actors';
import { startCluster, type Cluster } from '../harness/cluster';
import { json, startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { k8sEnv } from '../harness/k8s-env';
import { client, waitFor } from '../harness/standalone';

const PEER = 'cluster-peer.test';
let cluster: Cluster;
let peer: SigningPeer;
let db: Database | undefined;
let repos: Stores;
let alice: Actor;
let up = false;
/** Post ids of the Creates the peer accepted, in arrival order. */
const accepted: string[] = [];

async function post(text: string): Promise<string> {
  const res = await client(cluster.url).post<{ createdId?: string }>(
    '/outbox',
    { type: 'Create', objectType: 'Post', to: '@public', object: { content: text } },
    { token: alice.token, headers: { 'idempotency-key': randomUUID() } },
  );
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

beforeAll(async () => {
  peer = await startSigningPeer(PEER, (req, res) => {
    if (req.method !== 'POST' || req.url !== '/inbox') return json(res, 404, { error: 'Not found' });
    if (!up) return res.writeHead(503).end();
    const a = JSON.parse(req.body.toString()) as { type: string; object?: { id?: string } };
    if (a.type === 'Create' && a.object?.id) accepted.push(a.object.id);
    res.writeHead(202).end();
  });
  cluster = await startCluster({
    env: {
      ...peer.serverEnv,
      FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
      FEDERATION_BREAKER_COOLDOWN_SECONDS: '3600',
      FEDERATION_PROBE_SECONDS: '2',
    },
  });
  db = await openDatabase({
    logger: createLogger({ level: 'silent', service: 'test' }),
    sqlitePath: cluster.sqlitePath,
  });
  repos = createStores(db, k8sEnv('social').DOMAIN!);
  alice = await registerActor(client(cluster.url), 'alice');
}, 120_000);
afterAll(async () => {
  await db?.close();
  await cluster?.stop();
  await peer?.close();
});

test('held and not yet planned deliveries survive a SIGKILL of the federation process', async () => {
  const follow = {
    id: `http://${PEER}/activities/follow-${randomUUID()}`,
    type: 'Follow',
    actorId: `@bob@${PEER}`,
    actor: { id: `@bob@${PEER}`, inbox: `http://${PEER}/inbox` },
    object: alice.id,
  };
  expect((await peer.send(`${cluster.url}/inbox`, follow)).status).toBe(202);
  await waitFor(() => repos.followers.isFollower(alice.id, `@bob@${PEER}`), 30_000);

  const held = [await post('held 1'), await post('held 2'), await post('held 3')];
  await waitFor(async () => (await repos.parkedDeliveries.count(PEER, 'held')) === 3, 30_000);

  expect(await cluster.kill('federation')).toBe('SIGKILL');
  // Planned by nobody yet: their events wait in the planner's durable queue.
  const queued = [await post('queued 1'), await post('queued 2'), await post('queued 3')];
  expect(accepted).toEqual([]);

  up = true;
  await cluster.relaunch('federation');
  await waitFor(() => Promise.resolve(accepted.length >= 6), 60_000);
  await waitFor(async () => (await repos.parkedDeliveries.count(PEER, 'held')) === 0, 30_000);
  expect([...accepted].sort()).toEqual([...held, ...queued].sort());
  // The held ones went in the order they were written.
  expect(accepted.filter((id) => held.includes(id))).toEqual(held);
}, 180_000);
