/**
 * Security tier, link previews (docs/security.md, "Outbound requests (SSRF)" and "Link previews
 * are limited per user"): a target refused by policy answers exactly like one that does not
 * resolve (no resolver oracle), nothing reaches a private listener, and each user has a limit of
 * their own at the edge, whichever address they call from. HEAD counts as GET for the edge
 * limits (a HEAD runs the same route). Rate limits are on; each test speaks from its own
 * client addresses (TRUST_PROXY=1).
 */
import type { ServerResponse } from 'node:http';
import { bootServer, type TestServer } from '../harness/standalone';
import { startPeer, type FakePeer } from '../harness/fake-peer';

let loopback: FakePeer;
let server: TestServer;

beforeAll(async () => {
  loopback = await startPeer((_req, res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>internal admin</title>'),
  );
  server = await bootServer({
    TRUST_PROXY: '1',
    // A name the resolver maps to a loopback address: an internal name, as an attacker would probe.
    FEDERATION_HOST_MAP: `inside.test=${loopback.address}`,
  });
});
afterAll(async () => {
  await server?.close();
  await loopback?.close();
});

async function call(method: string, path: string, ip: string, token?: string) {
  const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': ip };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${path}`, { method, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

async function register(username: string, ip: string): Promise<string> {
  const res = await fetch(`${server.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password: 'password123' }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(body)}`);
  return body.token!;
}

const preview = (url: string, ip: string, token: string) =>
  call('GET', `/preview?url=${encodeURIComponent(url)}`, ip, token);

describe('a link preview refused by policy reads like a link that does not resolve', () => {
  test('an internal name, a loopback name and address, and an unresolvable name: the same answer', async () => {
    const ip = '203.0.113.10';
    const token = await register('previewer', ip);
    const port = loopback.port;
    for (const url of [
      'http://inside.test/admin',
      `http://localhost:${port}/`,
      `http://127.0.0.1:${port}/`,
      'http://10.0.0.1/',
      'http://no-such-host.invalid/admin',
    ]) {
      const res = await preview(url, ip, token);
      const { hostname, href } = new URL(url);
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 200,
        body: { url: href, title: null, summary: null, image: null, siteName: hostname, contentType: null },
      });
    }
    expect(loopback.received).toHaveLength(0);
  });
});

describe('link previews are limited per user at the edge', () => {
  test('the 31st preview in the window is 429 with Retry-After, from any address; another user is not counted', async () => {
    const ip = '203.0.113.20';
    const ann = await register('preview_ann', ip);
    const ben = await register('preview_ben', '203.0.113.21');
    for (let i = 0; i < 30; i++) {
      const res = await preview(`http://127.0.0.1:1/${i}`, ip, ann);
      expect([i, res.status]).toEqual([i, 200]);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    }
    const limited = await preview('http://127.0.0.1:1/more', ip, ann);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The count is the user's, not the address's.
    expect((await preview('http://127.0.0.1:1/elsewhere', '203.0.113.22', ann)).status).toBe(429);
    expect(
      (await call('HEAD', `/preview?url=${encodeURIComponent('http://127.0.0.1:1/')}`, ip, ann)).status,
    ).toBe(429);
    expect((await preview('http://127.0.0.1:1/ben', ip, ben)).status).toBe(200);
  });
});

describe('HEAD counts as GET for the edge limits', () => {
  test('anonymous HEAD lookups with a remote mode use up the remote-lookup limit', async () => {
    const ip = '203.0.113.30';
    await register('head_looker', '203.0.113.31');
    const path = '/users/@head_looker@social.test?mode=remote';
    for (let i = 0; i < 30; i++) expect([i, (await call('HEAD', path, ip)).status]).toEqual([i, 200]);
    expect((await call('GET', path, ip)).status).toBe(429);
  });
});
