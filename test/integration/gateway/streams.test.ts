/**
 * Event streams through the gateway (the live updates of ADR 0020): each event reaches the
 * client as it is written (not compressed, not held back), and a draining gateway ends its
 * streams at once, so a rollout does not wait out the grace period for them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startUpstream, type Upstream } from '../../harness/upstream';
import { startGateway } from '../../harness/gateway';
import { openStream } from '../../harness/sse';

let upstream: Upstream;
let events: http.Server;
let eventsUrl: string;
/** Streams the fake notifications service holds; each is told `tick` on demand. */
const held = new Set<http.ServerResponse>();

beforeAll(async () => {
  upstream = await startUpstream('edge.test');
  events = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store, no-transform' });
    // Long enough for a compressor to want to wait for more (the gateway compresses from 1 KB).
    res.write(`event: ready\ndata: {"pad":"${'x'.repeat(2000)}"}\n\n`);
    held.add(res);
    req.once('close', () => held.delete(res));
  });
  await new Promise<void>((r) => events.listen(0, '127.0.0.1', r));
  eventsUrl = `http://127.0.0.1:${(events.address() as AddressInfo).port}`;
});
afterAll(async () => {
  events.closeAllConnections();
  await new Promise((r) => events.close(r));
  await upstream?.close();
});

const gateway = () =>
  startGateway(upstream, {
    RATE_LIMITING_ENABLED: 'false',
    SHUTDOWN_GRACE_SECONDS: '60',
    SERVICE_URLS: `social=${upstream.url},admin=${upstream.url},federation=${upstream.url},notifications=${eventsUrl}`,
  });

test('each event arrives as it is written, uncompressed, while the stream stays open', async () => {
  const gw = await gateway();
  try {
    const s = await openStream(gw.url, undefined, '/notifications/stream');
    expect(s.status).toBe(200);
    expect(s.headers.get('content-encoding')).toBeNull();
    await s.next((e) => e.event === 'ready', 5000, 'ready');
    for (const res of held) res.write('event: tick\ndata: {"n":"1"}\n\n');
    await s.next((e) => e.event === 'tick', 5000, 'tick');
    s.close();
  } finally {
    await gw[Symbol.asyncDispose]();
  }
});

test('a draining gateway ends its streams at once and finishes its shutdown', async () => {
  const gw = await gateway();
  const s = await openStream(gw.url, undefined, '/notifications/stream');
  await s.next((e) => e.event === 'ready', 5000, 'ready');
  const began = Date.now();
  await gw[Symbol.asyncDispose]();
  await s.ended;
  // The grace is 60 s; only a stream that was ended rather than waited for lets it finish sooner.
  expect(Date.now() - began).toBeLessThan(10_000);
  // The gateway let go of its upstream side too (the service drops the stream).
  for (let i = 0; held.size && i < 50; i++) await new Promise((r) => setTimeout(r, 100));
  expect(held.size).toBe(0);
});
