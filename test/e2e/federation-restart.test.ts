/**
 * Held deliveries survive the sender's crash (issue 23, item 4; docs/federation.md, "Held
 * deliveries"): the compiled standalone, a real process on its own SQLite file, holds alice's
 * posts for a peer that answers 503; it is killed (SIGKILL: no shutdown code runs) and started
 * again on the same data directory; once the peer answers, every post arrives, once each, in the
 * order written. The held rows are read from the server's database through a second connection,
 * as a second replica would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStores, openDatabase, type Database, type Stores } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { call, registerOn, startCompiled, type CompiledServer } from '../harness/compiled';
import { json, startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { waitFor } from '../harness/standalone';

const PEER = 'restart-peer.test';
const DOMAIN = 'social.test';

let peer: SigningPeer;
let server: CompiledServer | undefined;
let db: Database | undefined;
let repos: Stores;
const dataDir = mkdtempSync(join(tmpdir(), 'agora-restart-'));
let up = false;
/** Post ids of the Creates the peer accepted, in arrival order. */
const accepted: string[] = [];

const env = () => ({
  ...peer.serverEnv,
  FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  FEDERATION_BREAKER_COOLDOWN_SECONDS: '3600',
  FEDERATION_PROBE_SECONDS: '2',
});

beforeAll(async () => {
  peer = await startSigningPeer(PEER, (req, res) => {
    if (req.method !== 'POST' || req.url !== '/inbox') return json(res, 404, { error: 'Not found' });
    if (!up) return res.writeHead(503).end();
    const a = JSON.parse(req.body.toString()) as { type: string; object?: { id?: string } };
    if (a.type === 'Create' && a.object?.id) accepted.push(a.object.id);
    res.writeHead(202).end();
  });
  server = await startCompiled({ env: env(), dataDir });
  db = await openDatabase({
    logger: createLogger({ level: 'silent', service: 'test' }),
    sqlitePath: join(dataDir, 'agora.db'),
  });
  repos = createStores(db, DOMAIN);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await db?.close();
  await peer?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('deliveries held when the sender is killed go out after its restart, once each, in order', async () => {
  const token = await registerOn(server!, 'alice');
  const alice = `@alice@${DOMAIN}`;
  const follow = {
    id: `http://${PEER}/activities/follow-1`,
    type: 'Follow',
    actorId: `@bob@${PEER}`,
    actor: { id: `@bob@${PEER}`, inbox: `http://${PEER}/inbox` },
    object: alice,
  };
  expect((await peer.send(`${server!.url}/inbox`, follow)).status).toBe(202);
  await waitFor(() => repos.followers.isFollower(alice, `@bob@${PEER}`), 20_000);

  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await call<{ createdId: string }>(server!, 'POST', '/outbox', {
      token,
      body: { type: 'Create', objectType: 'Post', to: '@public', object: { content: `held ${i}` } },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.createdId);
  }
  await waitFor(async () => (await repos.parkedDeliveries.count(PEER, 'held')) === 6, 30_000);

  // A crash: no drain, no shutdown hook. What is held is on disk.
  process.kill(-server!.pid, 'SIGKILL');
  expect((await server!.exited).signal).toBe('SIGKILL');
  expect(await repos.parkedDeliveries.count(PEER, 'held')).toBe(6);
  expect(accepted).toEqual([]);

  server = await startCompiled({ env: env(), dataDir });
  up = true;
  await waitFor(async () => (await repos.parkedDeliveries.count(PEER, 'held')) === 0, 60_000);
  expect(accepted).toEqual(ids);
}, 180_000);
