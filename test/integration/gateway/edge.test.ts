/** The gateway's edge rules of spec 1.2, 1.3, 1.7, 5.3 and 5.4, through real HTTP. */
import { startUpstream, type Upstream } from '../../harness/upstream';
import { startGateway } from '../../harness/gateway';
import { APP_CSP, type GatewayApp } from '@agora/gateway';

let upstream: Upstream;
let gw: GatewayApp & { url: string };

beforeAll(async () => {
  upstream = await startUpstream('edge.test');
  gw = await startGateway(upstream, {
    RATE_LIMITING_ENABLED: 'false',
    CORS_ORIGIN: 'https://app.example,https://other.example',
  });
});
afterAll(async () => {
  await gw?.[Symbol.asyncDispose]();
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.status = undefined;
});

const big = (bytes: number) =>
  JSON.stringify({ type: 'Create', object: { type: 'Note', content: 'x'.repeat(bytes) } });

describe('CORS (spec 1.3)', () => {
  const preflight = (origin: string) =>
    fetch(`${gw.url}/posts`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });

  test.each([
    ['https://edge.test'],
    ['http://edge.test'],
    ['https://app.example'],
    ['https://other.example'],
    ['http://localhost:5173'],
    ['http://localhost:3000'],
  ])('%s is allowed with credentials', async (origin) => {
    const res = await fetch(`${gw.url}/posts`, { headers: { origin, accept: 'application/json' } });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const pre = await preflight(origin);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type,authorization');
  });

  test('a disallowed origin gets no CORS headers; preflights stop at the gateway', async () => {
    const res = await fetch(`${gw.url}/posts`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight('https://evil.example');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(upstream.requests.filter((r) => r.method === 'OPTIONS')).toHaveLength(0);
  });

  test('no Origin passes (native clients, federation)', async () => {
    const res = await fetch(`${gw.url}/posts`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('localhost origins are refused in production', async () => {
    const prod = await startGateway(upstream, { NODE_ENV: 'production', RATE_LIMITING_ENABLED: 'false' });
    try {
      const res = await fetch(`${prod.url}/posts`, { headers: { origin: 'http://localhost:5173' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const ok = await fetch(`${prod.url}/posts`, { headers: { origin: 'https://edge.test' } });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://edge.test');
    } finally {
      await prod[Symbol.asyncDispose]();
    }
  });
});

describe('body limits (spec 1.2)', () => {
  test('application/json over 1 MB is refused with a JSON 413 before proxying', async () => {
    const res = await fetch(`${gw.url}/outbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': await upstream.sign('@a@edge.test') },
      body: big(1.5 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body too large' });
    expect(upstream.requests).toHaveLength(0);
  });

  test('application/activity+json of 1.5 MB reaches the outbox intact; above JSON_LIMIT it is 413', async () => {
    const token = await upstream.sign('@a@edge.test');
    const body = big(1.5 * 1024 * 1024);
    const res = await fetch(`${gw.url}/outbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${token}` },
      body,
    });
    expect(res.status).toBe(201);
    expect(upstream.requests[0]!.body.toString()).toBe(body);
    const tooBig = await fetch(`${gw.url}/outbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${token}` },
      body: big(2.5 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
  });

  test('small JSON bodies and other types stream through unchanged', async () => {
    const json = JSON.stringify({ username: 'zed', password: 'password123' });
    await fetch(`${gw.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json,
    });
    const bin = Buffer.alloc(3 * 1024 * 1024, 7);
    await fetch(`${gw.url}/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bin,
    });
    expect(upstream.requests[0]!.body.toString()).toBe(json);
    expect(upstream.requests[1]!.body.equals(bin)).toBe(true);
  });
});

describe('browser navigation (spec 1.7, 5.3.4)', () => {
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  test.each([
    '/circles/x',
    '/groups',
    '/users/@a@edge.test',
    '/posts/1',
    '/pages/about',
    '/profile',
    '/search',
    '/notifications',
    '/servers',
    '/discover',
    '/admin',
    '/login',
    '/signup?invite=abc',
    '/forgot-password',
    '/settings',
    '/bookmarks',
  ])('GET %s from a browser gets the app', async (path) => {
    const res = await fetch(`${gw.url}${path}`, { headers: html });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toMatch(/<html/);
    expect(upstream.requests).toHaveLength(0);
  });

  test('ActivityPub accepts, rss, API accepts, other segments and /admin with Authorization go to the API', async () => {
    await fetch(`${gw.url}/users/a`, { headers: { accept: 'text/html, application/activity+json' } });
    await fetch(`${gw.url}/users/a`, { headers: { accept: 'text/html, application/ld+json' } });
    await fetch(`${gw.url}/users/a/posts?rss`, { headers: html });
    await fetch(`${gw.url}/posts`, { headers: { accept: 'application/json' } });
    await fetch(`${gw.url}/auth/me`, { headers: html });
    await fetch(`${gw.url}/admin/users`, {
      headers: { ...html, authorization: `Bearer ${await upstream.sign('@root@edge.test')}` },
    });
    expect(upstream.requests.map((r) => r.url)).toEqual([
      '/users/a',
      '/users/a',
      '/users/a/posts?rss',
      '/posts',
      '/auth/me',
      '/admin/users',
    ]);
  });

  test('SERVE_FRONTEND=false turns it off', async () => {
    const off = await startGateway(upstream, { SERVE_FRONTEND: 'false', RATE_LIMITING_ENABLED: 'false' });
    try {
      await fetch(`${off.url}/posts/1`, { headers: html });
      expect(upstream.requests.map((r) => r.url)).toEqual(['/posts/1']);
    } finally {
      await off[Symbol.asyncDispose]();
    }
  });
});

describe('unknown paths from a browser (issue 26)', () => {
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  test('a page load the API answers with 404 gets the app with status 404; API clients keep JSON', async () => {
    upstream.status = 404;
    const page = await fetch(`${gw.url}/nowhere/at/all`, { headers: html });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(await page.text()).toMatch(/<html/);

    const json = await fetch(`${gw.url}/nowhere/at/all`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: 'upstream says no' });
    const withToken = await fetch(`${gw.url}/nowhere/at/all`, {
      headers: { ...html, authorization: `Bearer ${await upstream.sign('@a@edge.test')}` },
    });
    expect(withToken.headers.get('content-type')).toMatch(/json/);
  });

  test('any other answer to a browser passes through untouched', async () => {
    for (const status of [200, 403, 500]) {
      upstream.status = status;
      const res = await fetch(`${gw.url}/nowhere/at/all`, { headers: html });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/json/);
    }
  });
});

describe('auth at the edge (spec 5.3, 5.4)', () => {
  test('admin routes need an RS256 token in Authorization', async () => {
    expect((await fetch(`${gw.url}/admin/users`, { headers: { accept: 'application/json' } })).status).toBe(
      401,
    );
    const token = await upstream.sign('@root@edge.test');
    expect(
      (
        await fetch(`${gw.url}/admin/users`, {
          headers: { accept: 'application/json', 'x-auth-token': token },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await fetch(`${gw.url}/admin/users`, {
          headers: { accept: 'application/json', authorization: `Token ${token}` },
        })
      ).status,
    ).toBe(200);
    const wrongIssuer = await upstream.sign('@root@edge.test', { issuer: 'https://evil.test' });
    expect(
      (await fetch(`${gw.url}/admin/users`, { headers: { authorization: `Bearer ${wrongIssuer}` } })).status,
    ).toBe(401);
    const expired = await upstream.sign('@root@edge.test', { expiresIn: Math.floor(Date.now() / 1000) - 10 });
    expect(
      (await fetch(`${gw.url}/admin/users`, { headers: { authorization: `Bearer ${expired}` } })).status,
    ).toBe(401);
  });

  test('anonymous POST /outbox passes only for a Create of a User/Person', async () => {
    const post = (body: unknown) =>
      fetch(`${gw.url}/outbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const denied = await post({ type: 'Create', objectType: 'Post', object: { content: 'hi' } });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ error: 'Unauthorized' });
    expect(
      (
        await post({
          type: 'Create',
          objectType: 'User',
          object: { username: 'u1', password: 'password123' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await post({ type: 'Create', object: { type: 'Person', username: 'u2', password: 'password123' } }))
        .status,
    ).toBe(201);
    expect(upstream.requests).toHaveLength(2);
  });
});

describe('proxying', () => {
  const CLIENT_TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  test('request ids are kept or made and returned; internal headers and a client trace context are stripped', async () => {
    const res = await fetch(`${gw.url}/posts`, {
      headers: {
        'x-request-id': 'client-supplied-id-1',
        'x-agora-user': '@root@edge.test',
        traceparent: CLIENT_TRACE,
        tracestate: 'vendor=1',
        baggage: 'user=alice',
      },
    });
    expect(res.headers.get('x-request-id')).toBe('client-supplied-id-1');
    const seen = upstream.requests.at(-1)!.headers;
    expect(seen['x-request-id']).toBe('client-supplied-id-1');
    expect(seen['x-agora-user']).toBeUndefined();
    // TRACE_TRUST_INCOMING is false by default: the public does not pick trace ids or sampling.
    expect([seen.traceparent, seen.tracestate, seen.baggage]).toEqual([undefined, undefined, undefined]);
    const made = await fetch(`${gw.url}/posts`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('with TRACE_TRUST_INCOMING=true a client trace context is forwarded', async () => {
    const trusting = await startGateway(upstream, {
      RATE_LIMITING_ENABLED: 'false',
      TRACE_TRUST_INCOMING: 'true',
    });
    try {
      await fetch(`${trusting.url}/posts`, { headers: { traceparent: CLIENT_TRACE } });
      expect(upstream.requests.at(-1)!.headers.traceparent).toBe(CLIENT_TRACE);
    } finally {
      await trusting[Symbol.asyncDispose]();
    }
  });

  test('a service that is down gives a JSON 502', async () => {
    const dead = await startUpstream('edge.test');
    await dead.close();
    const { startGateway: start } = await import('../../harness/gateway');
    const g = await start(dead, { RATE_LIMITING_ENABLED: 'false' });
    try {
      const res = await fetch(`${g.url}/posts`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: 'Upstream service unavailable' });
    } finally {
      await g[Symbol.asyncDispose]();
    }
  });
});
