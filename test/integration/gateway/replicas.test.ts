/**
 * Several replicas per service (SERVICE_URLS, issue 25): the gateway balances round-robin,
 * skips a replica whose connection was refused, and sends a request that is safe to repeat to
 * another replica when the connection failed before any answer; other requests get 502.
 */
import { freePort } from '@agora/common/db';
import { startUpstream, type Upstream } from '../../harness/upstream';
import { startGateway } from '../../harness/gateway';
import type { GatewayApp } from '@agora/gateway';

let a: Upstream;
let b: Upstream;
let dead: string;
const gateways: (GatewayApp & { url: string })[] = [];

beforeAll(async () => {
  a = await startUpstream('edge.test');
  b = await startUpstream('edge.test');
  // A port nothing listens on: connections are refused.
  dead = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  for (const gw of gateways) await gw[Symbol.asyncDispose]();
  await a?.close();
  await b?.close();
});
beforeEach(() => {
  a.requests.length = 0;
  b.requests.length = 0;
});

/** A fresh gateway (its rotation starts at the first URL) with these social replicas. */
async function gatewayWith(social: string): Promise<GatewayApp & { url: string }> {
  const gw = await startGateway(a, {
    RATE_LIMITING_ENABLED: 'false',
    SERVICE_URLS: `social=${social},admin=${a.url},federation=${a.url},notifications=${a.url}`,
  });
  gateways.push(gw);
  return gw;
}

const get = (gw: { url: string }, path: string) =>
  fetch(`${gw.url}${path}`, { headers: { accept: 'application/json' } });

test('repeated names and `|` both list replicas; requests alternate between them', async () => {
  for (const social of [`${a.url},social=${b.url}`, `${a.url}|${b.url}`]) {
    a.requests.length = 0;
    b.requests.length = 0;
    const gw = await gatewayWith(social);
    for (let i = 0; i < 6; i++) expect((await get(gw, `/echo?i=${i}`)).status).toBe(200);
    expect(a.requests).toHaveLength(3);
    expect(b.requests).toHaveLength(3);
  }
});

test('a GET whose replica refuses the connection is answered by another one', async () => {
  const gw = await gatewayWith(`${dead}|${a.url}`);
  const res = await get(gw, '/echo');
  expect(res.status).toBe(200);
  expect(a.requests.map((r) => r.url)).toEqual(['/echo']);
  // The refusing replica is skipped now: the next requests all go to the live one.
  for (let i = 0; i < 4; i++) expect((await get(gw, `/echo?n=${i}`)).status).toBe(200);
  expect(a.requests).toHaveLength(5);
});

test('a refused POST is sent whole to another replica', async () => {
  const body = JSON.stringify({ type: 'Note', content: 'kept across the retry' });
  const post = (gw: { url: string }, headers: Record<string, string>) =>
    fetch(`${gw.url}/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
    });

  const withKey = await post(await gatewayWith(`${dead}|${a.url}`), { 'idempotency-key': 'k-1' });
  expect(withKey.status).toBe(201);
  expect(a.requests).toHaveLength(1);
  expect(a.requests[0]!.body.toString()).toBe(body);
  expect(a.requests[0]!.headers['idempotency-key']).toBe('k-1');

  a.requests.length = 0;
  const without = await post(await gatewayWith(`${dead}|${a.url}`), {});
  expect(without.status).toBe(201);
  expect(a.requests[0]!.body.toString()).toBe(body);
});

test('a POST without Idempotency-Key whose connection broke after it was sent gets 502, not a retry', async () => {
  // A replica that reads the request and drops the connection without answering.
  const { createServer } = await import('node:http');
  const rude = createServer((req) => req.on('end', () => req.socket.destroy()).resume());
  await new Promise<void>((r) => rude.listen(0, '127.0.0.1', r));
  const rudeUrl = `http://127.0.0.1:${(rude.address() as { port: number }).port}`;
  // http-proxy-middleware's default debug plugin printed a misleading "[HPM] Connection reset …
  // req.body" banner to stderr here; the gateway logs proxy errors through its own logger only.
  const printed = jest.spyOn(console, 'error');
  try {
    const send = async (headers: Record<string, string>) =>
      fetch(`${(await gatewayWith(`${rudeUrl}|${a.url}`)).url}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: '{"content":"x"}',
      });
    const without = await send({});
    expect(without.status).toBe(502);
    expect(await without.json()).toEqual({ error: 'Upstream service unavailable' });
    expect(a.requests).toHaveLength(0);
    expect((await send({ 'idempotency-key': 'k-2' })).status).toBe(201);
    expect(a.requests).toHaveLength(1);
    expect(printed.mock.calls.map((c) => String(c[0]))).not.toContainEqual(expect.stringContaining('[HPM]'));
  } finally {
    printed.mockRestore();
    rude.closeAllConnections();
    await new Promise((r) => rude.close(r));
  }
});

test('GET /health is up while one replica of a service is down', async () => {
  const gw = await gatewayWith(`${dead}|${a.url}`);
  const res = await get(gw, '/health');
  expect(res.status).toBe(200);
  const health = (await res.json()) as { services: Record<string, string> };
  expect(health.services.social).toBe('up');
});
