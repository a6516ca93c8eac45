/**
 * The gateway's upstream timeout (UPSTREAM_TIMEOUT_SECONDS, here 1.5 s), the same both ways a
 * request reaches a service: handed in process (standalone; `/t/...` goes to the social app in
 * the gateway's process) and through the HTTP proxy (the cluster; `/notifications/...` goes to the
 * same app listening on a port of its own). A service that never answers gets a 504 `{ error }`
 * answered for it, counted in the edge's metrics; one that started answering and went silent is
 * cut; a slow upload, a long answer or a stream that keeps moving is never cut; and a service
 * that writes after the timeout changes nothing. Plus the proxy's `Expect: 100-continue` bug: its
 * hook was skipped (no buffered body sent, a timeout answered 502).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadConfig } from '@agora/common/config';
import { createLogger } from '@agora/common/logger';
import { registry } from '@agora/common/metrics';
import { createApp, type GatewayApp } from '@agora/gateway';
import { gatewayEnv } from '../../harness/gateway';
import { startUpstream, type Upstream } from '../../harness/upstream';
import { openStream } from '../../harness/sse';
import { answersIn, onOneConnection, sleep } from '../../harness/raw-http';

const TIMEOUT_MS = 1500;
let upstream: Upstream;
let service: http.Server;
let gw: GatewayApp & { url: string };
/** Releases every request the service holds: each then answers (too late). */
let release: () => void = () => undefined;
let released = Promise.resolve();
/** Errors the service app met once its answer was out (in process: the edge's 504). */
const serviceErrors: unknown[] = [];

function serviceApp(): express.Express {
  const app = express();
  const held = () => released;
  app.get(/\/hang$/, async (_req, res) => {
    await held();
    res.status(200).json({ late: true });
  });
  app.get(/\/hang-with-header$/, async (_req, res) => {
    res.setHeader('x-service', 'set');
    res.status(201);
    await held();
    res.write('late');
    res.end();
  });
  app.get(/\/hang-then-fail$/, async () => {
    await held();
    throw new Error('late failure');
  });
  app.get(/\/silent$/, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('partial');
  });
  app.get(/\/ticks$/, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store, no-transform' });
    let n = 0;
    const timer = setInterval(() => {
      if (++n <= 8) return void res.write(': tick\n\n');
      clearInterval(timer);
      res.end('data: {"done":"yes"}\n\n');
    }, 400);
  });
  app.post(/\/upload$/, (req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.status(201).json({ bytes }));
  });
  app.post(/\/echo$/, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.json({ body: Buffer.concat(chunks).toString(), headers: req.headers }));
  });
  app.get(/\/ok$/, (_req, res) => void res.json({ ok: true }));
  app.use((err: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) {
      serviceErrors.push(err);
      return next(err);
    }
    res.status(500).json({ error: 'Internal error' });
  });
  return app;
}

beforeAll(async () => {
  upstream = await startUpstream('edge.test');
  service = http.createServer(serviceApp());
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const u = upstream.url;
  const env = gatewayEnv(upstream, {
    RATE_LIMITING_ENABLED: 'false',
    UPSTREAM_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000),
    LIVE_HEARTBEAT_SECONDS: '1',
    SERVICE_URLS: `social=${u},admin=${u},federation=${u},notifications=${serviceUrl}`,
  });
  gw = createApp(loadConfig({}, { ...env, PORT: '0' }), {
    logger: createLogger({ level: 'silent', service: 'test' }),
    local: { social: serviceApp() },
  }) as GatewayApp & { url: string };
  await gw.start();
});
beforeEach(() => {
  released = new Promise<void>((r) => (release = r));
  serviceErrors.length = 0;
});
afterEach(() => release());
afterAll(async () => {
  await gw?.[Symbol.asyncDispose]();
  service?.closeAllConnections();
  await new Promise((r) => service?.close(r));
  await upstream?.close();
});

const ways = [
  ['in process', '/t'],
  ['through the proxy', '/notifications'],
] as const;

async function counted504(route: string): Promise<number> {
  const family = (await registry.getMetricsAsJSON()).find((m) => m.name === 'agora_http_requests_total');
  const hit = family?.values.find(
    (v) => v.labels.service === 'gateway' && v.labels.route === route && v.labels.code === '504',
  );
  return hit?.value ?? 0;
}

describe.each(ways)('%s', (_way, prefix) => {
  const route = prefix === '/t' ? 'proxy:social' : 'proxy:notifications';

  test('a service that never answers: 504 { error } after the timeout, counted and logged', async () => {
    const before = await counted504(route);
    const res = await fetch(`${gw.url}${prefix}/hang`);
    expect(res.status).toBe(504);
    // Through the edge's own hooks on the answer (compression's): its headers are kept.
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'Upstream service timed out' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await counted504(route)).toBe(before + 1);
  });

  test("the 504 carries none of the service's own headers", async () => {
    const res = await fetch(`${gw.url}${prefix}/hang-with-header`);
    expect(res.status).toBe(504);
    expect(res.headers.get('x-service')).toBeNull();
    expect(await res.json()).toEqual({ error: 'Upstream service timed out' });
  });

  test('a service answering after the timeout changes nothing: nothing more on the connection', async () => {
    const got = await onOneConnection(
      Number(new URL(gw.url).port),
      [`${prefix}/hang`, `${prefix}/hang-then-fail`, `${prefix}/ok`],
      async () => {
        release();
        await sleep(200);
        released = new Promise<void>((r) => (release = r));
      },
    );
    const timedOut = JSON.stringify({ error: 'Upstream service timed out' });
    expect(answersIn(got)).toEqual({
      answers: [
        { status: '504', body: timedOut },
        { status: '504', body: timedOut },
        { status: '200', body: '{"ok":true}' },
      ],
      rest: '',
    });
    // The late answer threw nothing (no "headers already sent"): only the failure it meant.
    expect(serviceErrors.map((e) => (e as Error).message)).toEqual(prefix === '/t' ? ['late failure'] : []);
  });

  test('a slow upload that keeps sending for longer than the timeout is never cut', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${gw.url}${prefix}/upload`,
        { method: 'POST', headers: { 'content-type': 'application/octet-stream' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let i = 0; i < 12; i++) {
          req.write(Buffer.alloc(1000, 1));
          await sleep(TIMEOUT_MS / 4);
        }
        req.end();
      })();
    });
    expect(answer).toEqual({ status: 201, body: JSON.stringify({ bytes: 12_000 }) });
  });

  test('a stream that keeps writing for longer than the timeout is never cut', async () => {
    const s = await openStream(gw.url, undefined, `${prefix}/ticks`);
    expect(s.status).toBe(200);
    await s.next((e) => e.data.done === 'yes', 10_000, 'the end of the stream');
    expect(s.comments).toBe(8);
  });

  test('an answer that started and then went silent is cut after the timeout', async () => {
    const res = await fetch(`${gw.url}${prefix}/silent`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    // The gateway still serves.
    expect((await fetch(`${gw.url}${prefix}/ok`)).status).toBe(200);
  });
});

describe('Expect: 100-continue', () => {
  const send = (path: string, body: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${gw.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          expect: '100-continue',
          'x-agora-user': 'forged',
        },
      });
      req.on('continue', () => req.end(body));
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });

  test.each(ways)(
    '%s: the buffered body reaches the service, without internal headers',
    async (_way, prefix) => {
      const res = await send(`${prefix}/echo`, '{"a":1}');
      expect(res.status).toBe(200);
      const seen = JSON.parse(res.body) as { body: string; headers: Record<string, string> };
      expect(seen.body).toBe('{"a":1}');
      expect(seen.headers['x-agora-user']).toBeUndefined();
      expect(seen.headers.expect).toBeUndefined();
      expect(seen.headers['x-request-id']).toMatch(/.+/);
    },
  );

  test('through the proxy: a timeout is still a 504', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${gw.url}/notifications/hang`, {
        method: 'GET',
        headers: { expect: '100-continue' },
      });
      req.on('response', (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(res).toBe(504);
  });
});
