/**
 * One trace follows a write through the cluster (issue 25, item 4): alice's public post, sent to
 * the gateway, is proxied to social, whose event crosses RabbitMQ to notifications (bob is
 * mentioned) and to federation, which plans a delivery job on the bus and sends it to a follower's
 * server. Every process exports to an in-process OTLP receiver (test/harness/otlp-sink.ts); the
 * spans of that one trace must span all of it, each one's parent in the same trace, and the lines
 * a process logged while handling it carry its trace id. A `traceparent` the client sent is
 * not continued (TRACE_TRUST_INCOMING defaults to false), and noisy spans are not exported.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createStores, openDatabase } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { registerActor, type Actor } from '../harness/actors';
import { startCluster, type Cluster } from '../harness/cluster';
import { json, startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { k8sEnv } from '../harness/k8s-env';
import { startOtlpSink, type OtlpSink, type SinkSpan } from '../harness/otlp-sink';
import { client, waitFor } from '../harness/standalone';

const PEER = 'trace-peer.test';
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let sink: OtlpSink;
let peer: SigningPeer;
let cluster: Cluster;
let alice: Actor;
let bob: Actor;
const delivered: string[] = [];

beforeAll(async () => {
  sink = await startOtlpSink();
  peer = await startSigningPeer(PEER, (req, res) => {
    if (req.method !== 'POST' || req.url !== '/inbox') return json(res, 404, { error: 'Not found' });
    const a = JSON.parse(req.body.toString()) as { type: string; object?: { id?: string } };
    if (a.type === 'Create' && a.object?.id) delivered.push(a.object.id);
    res.writeHead(202).end();
  });
  cluster = await startCluster({
    startTimeoutMs: 150_000,
    env: {
      ...peer.serverEnv,
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  const api = client(cluster.url);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  const follow = {
    id: `http://${PEER}/activities/follow-${randomUUID()}`,
    type: 'Follow',
    actorId: `@carol@${PEER}`,
    actor: { id: `@carol@${PEER}`, inbox: `http://${PEER}/inbox` },
    object: alice.id,
  };
  expect((await peer.send(`${cluster.url}/inbox`, follow)).status).toBe(202);
  // Read through the shared SQLite file, as a replica would (no API lists remote followers).
  const db = await openDatabase({
    logger: createLogger({ level: 'silent', service: 'test' }),
    sqlitePath: cluster.sqlitePath,
  });
  try {
    const repos = createStores(db, k8sEnv('social').DOMAIN!);
    await waitFor(() => repos.followers.isFollower(alice.id, `@carol@${PEER}`), 30_000);
  } finally {
    await db.close();
  }
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await peer?.close();
  await sink?.close();
});

const inTrace = (traceId: string) => sink.spans.filter((s) => s.traceId === traceId);
const summary = (spans: SinkSpan[]) =>
  spans.map((s) => `${s.service} ${s.kind} ${s.name} ${s.traceId}/${s.parentSpanId || '-'}`).join('\n');
/** The Deployments name their services (OTEL_SERVICE_NAME); unnamed, a process is `agora-<service>`. */
const serviceOf = (s: SinkSpan) => s.service.replace(/^agora-/, '');
const has = (spans: SinkSpan[], service: string, kind: number, name: RegExp) =>
  spans.some((s) => serviceOf(s) === service && s.kind === kind && name.test(s.name));

test('a post is one trace: gateway → social → bus → notifications, and → federation → delivery', async () => {
  const forged = randomBytes(16).toString('hex');
  const domain = k8sEnv('social').DOMAIN!;
  const res = await client(cluster.url).post<{ createdId?: string }>(
    '/outbox',
    {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: `hello @${bob.username}@${domain}` },
    },
    {
      token: alice.token,
      headers: { 'idempotency-key': randomUUID(), traceparent: `00-${forged}-${'1'.repeat(16)}-01` },
    },
  );
  expect(res.status).toBe(201);
  const postId = res.body.createdId!;

  // The post reached the follower's server and bob's notifications (the behaviour traced).
  await waitFor(() => Promise.resolve(delivered.includes(postId)), 30_000);
  await waitFor(async () => {
    const n = await client(cluster.url).get<{ count: number }>('/notifications/unread/count', {
      token: bob.token,
    });
    return n.body.count > 0;
  }, 30_000);

  // Social's span of this request (the route names it) gives the trace; its root is the gateway's.
  const handled = () =>
    sink.spans.find((s) => serviceOf(s) === 'social' && s.kind === SERVER && s.name === 'POST /outbox');
  await waitFor(() => Promise.resolve(handled() !== undefined), 20_000).catch((err: Error) => {
    throw new Error(`${err.message}; spans: ${summary(sink.spans)}`);
  });
  const traceId = handled()!.traceId;
  // The client's traceparent was not continued.
  expect(traceId).not.toBe(forged);
  expect(sink.spans.filter((s) => s.traceId === forged)).toEqual([]);

  const expected: Array<[string, number, RegExp]> = [
    ['gateway', CLIENT, /^POST/],
    ['social', SERVER, /^POST/],
    ['social', PRODUCER, /^publish post\.created$/],
    ['notifications', CONSUMER, /^process notifications\.events$/],
    ['federation', CONSUMER, /^process federation\.plan$/],
    ['federation', PRODUCER, /^publish federation\.deliver$/],
    ['federation', CONSUMER, /^process federation\.deliver$/],
    ['federation', CLIENT, /^POST/],
  ];
  await waitFor(
    () => Promise.resolve(expected.every(([svc, kind, name]) => has(inTrace(traceId), svc, kind, name))),
    20_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; spans of the trace:\n${summary(inTrace(traceId))}`);
  });
  const spans = inTrace(traceId);
  // One tree: a single root (the gateway's), every other span's parent in the same trace.
  const ids = new Set(spans.map((s) => s.spanId));
  const roots = spans.filter((s) => !s.parentSpanId);
  expect(roots.map((s) => [serviceOf(s), s.kind, s.name])).toEqual([['gateway', SERVER, 'POST']]);
  expect(spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId))).toEqual([]);
  // The delivery went to the follower's server.
  const send = spans.find((s) => serviceOf(s) === 'federation' && s.kind === CLIENT)!;
  expect(JSON.stringify(send.attributes)).toContain('/inbox');

  // Noisy spans are off by default: no Express layer, fs, dns, net or Redis command spans.
  const noisy = sink.spans.filter((s) =>
    /^(middleware|router|request handler) |^fs |^dns\.|^tcp\.|^redis-/.test(s.name),
  );
  expect(noisy.map((s) => s.name)).toEqual([]);
  // Probes and scrapes are not traced.
  expect(sink.spans.filter((s) => /\/health|\/metrics/.test(String(s.attributes['url.path'] ?? '')))).toEqual(
    [],
  );

  // What a service logged while handling it carries the trace id (federation logs each delivery).
  const sendLines = cluster.processes.federation
    .tail(400)
    .split('\n')
    .filter((l) => l.includes('"msg":"delivered"'));
  expect(sendLines.some((l) => l.includes(`"traceId":"${traceId}"`))).toBe(true);
  for (const l of sendLines) expect(l).toMatch(/"traceId":"[0-9a-f]{32}"/);
}, 90_000);
