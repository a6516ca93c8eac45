/**
 * The gateway of the standalone process hands a request to a service's app in the same process
 * (no loopback connection): the service sees what the proxy would have sent it (the canonical
 * path, the edge's request id, X-Forwarded-*, no client-sent internal headers, the body the edge
 * buffered, a streamed body whole), the edge's work still applies (de-duplication, security
 * headers), and a service with no in-process app is still proxied.
 */
import express from 'express';
import { loadConfig } from '@agora/common/config';
import { createLogger } from '@agora/common/logger';
import { createApp, type GatewayApp } from '@agora/gateway';
import { gatewayEnv } from '../../harness/gateway';
import { startUpstream, type Upstream } from '../../harness/upstream';

let upstream: Upstream;
let gw: GatewayApp & { url: string };
let token: string;
/** What the in-process social app saw on each request. */
const seen: {
  url: string;
  originalUrl: string;
  ip: string | undefined;
  headers: Record<string, unknown>;
  body: unknown;
  streamed?: string;
}[] = [];

function socialApp(): express.Express {
  const app = express();
  app.set('trust proxy', true);
  // The services verify the caller before they parse the body: the body is read a moment later.
  app.use((_req, _res, next) => void setTimeout(next, 20));
  app.use(express.json({ type: (req) => /json/.test(String(req.headers['content-type'])) }));
  app.post('/upload', (req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      seen.push({ ...record(req), streamed: text });
      res.status(201).json({ ok: true });
    });
  });
  app.get('/boom', () => {
    throw new Error('service failure');
  });
  app.use((req, res) => {
    seen.push(record(req));
    res.status(req.method === 'POST' ? 201 : 200).json({ ok: true, from: 'in-process' });
  });
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: 'Internal error' });
  });
  return app;
}

const record = (req: express.Request) => ({
  url: req.url,
  originalUrl: req.originalUrl,
  ip: req.ip,
  headers: { ...req.headers },
  body: req.body as unknown,
});

beforeAll(async () => {
  upstream = await startUpstream('edge.test');
  token = await upstream.sign('user-1');
  const config = loadConfig({}, { ...gatewayEnv(upstream, { RATE_LIMITING_ENABLED: 'true' }), PORT: '0' });
  gw = createApp(config, {
    logger: createLogger({ level: 'silent', service: 'test' }),
    local: { social: socialApp() },
  }) as GatewayApp & { url: string };
  await gw.start();
});
afterAll(async () => {
  await gw?.[Symbol.asyncDispose]();
  await upstream?.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body,
  });

test('a POST /outbox reaches the in-process service as the proxy would have sent it', async () => {
  const activity = { type: 'Create', objectType: 'Note', object: { content: 'in process' } };
  const res = await post('/outbox', JSON.stringify(activity), { 'x-agora-user': 'forged' });
  expect(res.status).toBe(201);
  expect(await res.json()).toEqual({ ok: true, from: 'in-process' });
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const got = seen.at(-1)!;
  expect(got.body).toEqual(activity);
  expect(got.originalUrl).toBe('/outbox');
  expect(got.headers['x-agora-user']).toBeUndefined();
  expect(got.headers['x-request-id']).toBe(res.headers.get('x-request-id'));
  expect(got.headers['x-forwarded-for']).toBe('127.0.0.1');
  expect(got.headers['x-forwarded-proto']).toBe('http');
  expect(got.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
  expect(got.ip).toBe('127.0.0.1');
  expect(upstream.requests.filter((r) => r.url.startsWith('/outbox'))).toEqual([]);
});

test('the edge still de-duplicates: the same activity again is a 409 that never reaches the service', async () => {
  const activity = { type: 'Create', objectType: 'Note', object: { content: 'twice' } };
  expect((await post('/outbox', JSON.stringify(activity))).status).toBe(201);
  expect(seen.at(-1)!.body).toEqual(activity);
  const before = seen.length;
  const again = await post('/outbox', JSON.stringify(activity));
  expect(again.status).toBe(409);
  expect(seen.length).toBe(before);
});

test('the service sees the canonical path, whatever spelling the client sent', async () => {
  const res = await fetch(`${gw.url}/users/%61lice?x=1`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(seen.at(-1)!.originalUrl).toBe('/users/alice?x=1');
});

test('a body the edge does not buffer streams to the service whole', async () => {
  const text = 'line\n'.repeat(50_000);
  const res = await post('/upload', text, { 'content-type': 'text/plain' });
  expect(res.status).toBe(201);
  expect(seen.at(-1)!.streamed).toBe(text);
});

test("a service's own error answer passes through", async () => {
  const res = await fetch(`${gw.url}/boom`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: 'Internal error' });
});

test('a service with no in-process app is still proxied', async () => {
  const res = await fetch(`${gw.url}/notifications`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
  expect(upstream.requests.at(-1)!.url).toBe('/notifications');
});
