/**
 * The federation HTTP client against real servers on loopback: what it refuses by default (SSRF:
 * loopback by IP, by name, by DNS answer, by redirect), what `allowPrivate` + `hostMap` let tests
 * and local setups do, and the size and time limits. A peer on 127.0.0.2 listed in `allowIps`
 * stands in for a public server, so redirects from it into loopback can be shown refused.
 */
import { createSafeFetch, SafeFetchError, type SafeFetchFailure } from '@agora/common/federation';
import { json, startPeer, type FakePeer } from '../../harness/fake-peer';

const peers: FakePeer[] = [];
const clients: Array<{ close(): void }> = [];

async function peer(...args: Parameters<typeof startPeer>) {
  const p = await startPeer(...args);
  peers.push(p);
  return p;
}

function client(...args: Parameters<typeof createSafeFetch>) {
  const c = createSafeFetch(...args);
  clients.push(c);
  return c;
}

afterAll(async () => {
  for (const c of clients) c.close();
  for (const p of peers) await p.close();
});

async function failure(p: Promise<unknown>): Promise<SafeFetchFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return (err as SafeFetchError).reason;
}

const ok = () => peer((_req, res) => json(res, 200, { ok: true }));

describe('by default', () => {
  test('loopback by IP, by name and as IPv6 is refused before any request is sent', async () => {
    const target = await ok();
    const fetch = client();
    expect(await failure(fetch(`http://127.0.0.1:${target.port}/users/x`))).toBe('forbidden_address');
    expect(await failure(fetch(`http://localhost:${target.port}/users/x`))).toBe('forbidden_address');
    expect(await failure(fetch(`http://[::1]:${target.port}/`))).toBe('forbidden_address');
    expect(await failure(fetch(`http://[::ffff:127.0.0.1]:${target.port}/`))).toBe('forbidden_address');
    expect(await failure(fetch(`http://2130706433:${target.port}/`))).toBe('forbidden_address');
    expect(target.received).toHaveLength(0);
  });

  test('the error is typed, with a safe message that does not name the address', async () => {
    const target = await ok();
    const err = await client()(`http://localhost:${target.port}/`).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, message: 'Remote server unreachable' });
    expect((err as Error).message).not.toMatch(/127|localhost/);
  });

  test('a domain mapped onto loopback is still refused without allowPrivate', async () => {
    const target = await ok();
    const fetch = client({ hostMap: { 'peer.test': target.address } });
    expect(await failure(fetch('http://peer.test/users/x'))).toBe('forbidden_address');
    expect(target.received).toHaveLength(0);
  });

  test('a name whose DNS answers are private, or mix public and private, is refused at connect', async () => {
    const target = await ok();
    const answers: Record<string, string[]> = {
      'rebind.test': ['127.0.0.1'],
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
    };
    const resolver = (host: string) =>
      Promise.resolve((answers[host] ?? []).map((address) => ({ address, family: 4 })));
    const fetch = client({ resolver, timeoutMs: 2000 });
    expect(await failure(fetch(`http://rebind.test:${target.port}/`))).toBe('forbidden_address');
    expect(await failure(fetch(`http://mixed.test:${target.port}/`))).toBe('forbidden_address');
    expect(target.received).toHaveLength(0);
    // The socket connects to the very answer that was checked.
    const lifted = client({ resolver, allowPrivate: true });
    expect((await lifted(`http://rebind.test:${target.port}/`)).status).toBe(200);
    expect(target.received[0]?.headers.host).toBe(`rebind.test:${target.port}`);
  });

  test('only http and https URLs', async () => {
    const fetch = client({ allowPrivate: true });
    for (const url of ['file:///etc/passwd', 'ftp://peer.test/x', 'gopher://peer.test', 'not a url']) {
      const err = await fetch(url).catch((e: unknown) => e);
      expect(err).toMatchObject({ reason: 'invalid_url', status: 400 });
    }
  });
});

describe('with allowPrivate and a hostMap', () => {
  test('talks to a fake peer by domain name, with the domain as Host', async () => {
    const target = await peer((req, res) =>
      json(res, 201, { echoed: req.body.toString(), method: req.method, path: req.url }),
    );
    const fetch = client({
      allowPrivate: true,
      hostMap: { 'peer.test': target.address },
      userAgent: 'Agora/test',
    });
    const res = await fetch('http://peer.test/inbox?x=1', {
      method: 'post',
      headers: { 'Content-Type': 'application/activity+json', Accept: 'application/activity+json' },
      body: '{"type":"Create"}',
    });
    expect(res.status).toBe(201);
    expect(res.url).toBe('http://peer.test/inbox?x=1');
    expect(res.headers['content-type']).toBe('application/activity+json');
    expect(JSON.parse(res.body.toString())).toEqual({
      echoed: '{"type":"Create"}',
      method: 'POST',
      path: '/inbox?x=1',
    });
    const seen = target.received[0]!;
    expect(seen.headers.host).toBe('peer.test');
    expect(seen.headers['user-agent']).toBe('Agora/test');
    expect(seen.headers['content-type']).toBe('application/activity+json');
    expect(seen.headers['content-length']).toBe('17');
  });

  test('a mapped domain with a port keeps the port in Host', async () => {
    const target = await ok();
    const fetch = client({ allowPrivate: true, hostMap: { 'peer.test:8443': target.address } });
    expect((await fetch('http://peer.test:8443/')).status).toBe(200);
    expect(target.received[0]?.headers.host).toBe('peer.test:8443');
  });

  test('error statuses are answers, not exceptions', async () => {
    const target = await peer((_req, res) => json(res, 410, { error: 'Gone' }));
    const res = await client({ allowPrivate: true, hostMap: { 'peer.test': target.address } })(
      'http://peer.test/x',
    );
    expect(res.status).toBe(410);
  });

  test('an unreachable peer is a network failure', async () => {
    const gone = await ok();
    await gone.close();
    peers.splice(peers.indexOf(gone), 1);
    const fetch = client({ allowPrivate: true, hostMap: { 'down.test': gone.address } });
    expect(await failure(fetch('http://down.test/'))).toBe('network');
  });
});

describe('redirects', () => {
  /** A "public" peer (127.0.0.2, allowed by address) that redirects wherever the test says. */
  async function redirector(location: (path: string) => string, status = 302) {
    return peer((req, res) => {
      if (req.url === '/final')
        return json(res, 200, { final: true, method: req.method, auth: req.headers.authorization ?? null });
      res.writeHead(status, { location: location(req.url) }).end();
    }, '127.0.0.2');
  }

  test('into loopback are refused, by IP, by name or by a mapped domain, and nothing reaches it', async () => {
    const internal = await ok();
    const targets = [
      `http://127.0.0.1:${internal.port}/admin`,
      `http://localhost:${internal.port}/admin`,
      'http://internal.test/admin',
      `http://[::ffff:7f00:1]:${internal.port}/admin`,
    ];
    for (const target of targets) {
      const front = await redirector(() => target);
      const fetch = client({
        allowIps: ['127.0.0.2'],
        hostMap: { 'public.test': front.address, 'internal.test': internal.address },
      });
      expect(await failure(fetch('http://public.test/start'))).toBe('forbidden_address');
      expect(front.received).toHaveLength(1);
    }
    expect(internal.received).toHaveLength(0);
  });

  test('are followed when each hop is allowed, up to maxRedirects', async () => {
    const front = await redirector((path) => (path === '/start' ? '/hop' : '/final'));
    const fetch = client({ allowIps: ['127.0.0.2'], hostMap: { 'public.test': front.address } });
    const res = await fetch('http://public.test/start');
    expect(res).toMatchObject({ status: 200, url: 'http://public.test/final' });
    expect(front.received.map((r) => r.url)).toEqual(['/start', '/hop', '/final']);

    const loop = await redirector(() => '/again');
    const limited = client({
      allowIps: ['127.0.0.2'],
      hostMap: { 'loop.test': loop.address },
      maxRedirects: 2,
    });
    expect(await failure(limited('http://loop.test/start'))).toBe('too_many_redirects');
    expect(loop.received).toHaveLength(3);
  });

  test('303 turns a POST into a GET; credentials do not follow to another origin', async () => {
    const front = await redirector((path) => (path === '/post' ? '/final' : 'http://other.test/final'), 303);
    const fetch = client({
      allowIps: ['127.0.0.2'],
      hostMap: { 'public.test': front.address, 'other.test': front.address },
    });
    const res = await fetch('http://public.test/post', {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(JSON.parse(res.body.toString())).toEqual({ final: true, method: 'GET', auth: 'Bearer secret' });
    const cross = await fetch('http://public.test/elsewhere', {
      headers: { Authorization: 'Bearer secret' },
    });
    expect(JSON.parse(cross.body.toString())).toMatchObject({ final: true, auth: null });
  });

  test('to a non-http scheme are refused', async () => {
    const front = await redirector(() => 'file:///etc/passwd');
    const fetch = client({ allowIps: ['127.0.0.2'], hostMap: { 'public.test': front.address } });
    expect(await failure(fetch('http://public.test/start'))).toBe('bad_redirect');
  });
});

describe('limits', () => {
  const big = Buffer.alloc(4096, 'a');

  test('a body over maxBytes is aborted, with or without Content-Length', async () => {
    const declared = await peer((_req, res) => res.writeHead(200, { 'content-length': big.length }).end(big));
    const chunked = await peer((_req, res) => {
      res.writeHead(200);
      let sent = 0;
      const tick = setInterval(() => {
        if (res.destroyed || sent > 1_000_000) {
          clearInterval(tick);
          res.end();
          return;
        }
        res.write(Buffer.alloc(512, 'b'));
        sent += 512;
      }, 1);
    });
    const fetch = client({
      allowPrivate: true,
      maxBytes: 1024,
      hostMap: { 'declared.test': declared.address, 'chunked.test': chunked.address },
    });
    expect(await failure(fetch('http://declared.test/'))).toBe('too_large');
    const started = Date.now();
    expect(await failure(fetch('http://chunked.test/'))).toBe('too_large');
    expect(Date.now() - started).toBeLessThan(2000);
    const exact = await peer((_req, res) => res.end(big.subarray(0, 1024)));
    const res = await client({
      allowPrivate: true,
      maxBytes: 1024,
      hostMap: { 'exact.test': exact.address },
    })('http://exact.test/');
    expect(res.body).toHaveLength(1024);
  });

  test('a server that never answers, or stalls mid-body, times out', async () => {
    const silent = await peer(() => undefined);
    const stalling = await peer((_req, res) => {
      res.writeHead(200, { 'content-length': 100 });
      res.write('partial');
    });
    const fetch = client({
      allowPrivate: true,
      timeoutMs: 300,
      hostMap: { 'silent.test': silent.address, 'stalling.test': stalling.address },
    });
    for (const url of ['http://silent.test/', 'http://stalling.test/']) {
      const started = Date.now();
      const err = await fetch(url).catch((e: unknown) => e);
      expect(err).toMatchObject({ reason: 'timeout', status: 504 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  test('the time limit covers the whole exchange, redirects included', async () => {
    const slowHops = await peer((req, res) => {
      setTimeout(() => res.writeHead(302, { location: `${req.url}x` }).end(), 120);
    });
    const fetch = client({
      allowPrivate: true,
      timeoutMs: 300,
      maxRedirects: 10,
      hostMap: { 'slow.test': slowHops.address },
    });
    expect(await failure(fetch('http://slow.test/'))).toBe('timeout');
    expect(slowHops.received.length).toBeLessThanOrEqual(3);
  });
});
