/**
 * Security tier, the edge (docs/security.md): one canonical path for edge rules and services,
 * per-account login throttling, registration limited as one mechanism, the anonymous
 * remote-lookup limit, nosniff on every response, HMAC tokens that must expire, reserved
 * usernames. Rate limits are on; each test speaks from its own client address (TRUST_PROXY=1),
 * so the per-IP buckets of one test do not leak into another.
 */
import { SignJWT } from 'jose';
import { bootServer, type TestServer } from '../harness/standalone';

const SECRET = 'a-shared-secret-of-the-hmac-fallback';
let server: TestServer;

beforeAll(async () => {
  server = await bootServer({ TRUST_PROXY: '1', JWT_SECRET: SECRET });
});
afterAll(async () => {
  await server?.close();
});

async function call(
  method: string,
  path: string,
  opts: { ip: string; body?: unknown; token?: string } = { ip: '198.51.100.1' },
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': opts.ip };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body, headers: res.headers };
}

async function register(username: string, ip: string): Promise<string> {
  const res = await call('POST', '/register', { ip, body: { username, password: 'password123' } });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

describe('one canonical path: no spelling of a route escapes the edge rules', () => {
  test('after the per-IP login limit, no other spelling of /auth/login logs in', async () => {
    const ip = '198.51.100.10';
    await register('canon_alice', '198.51.100.11');
    const right = { username: 'canon_alice', password: 'password123' };
    for (let i = 0; i < 20; i++) {
      const res = await call('POST', '/auth/login', { ip, body: { username: `nobody${i}`, password: 'x' } });
      expect(res.status).toBe(401);
    }
    expect((await call('POST', '/auth/login', { ip, body: right })).status).toBe(429);
    // Spellings that mean the same route are that route: limited.
    for (const path of [
      '/auth/login/',
      '//auth//login',
      '/auth/%6Cogin',
      '/auth/./login',
      '/x/../auth/login',
    ])
      expect([path, (await call('POST', path, { ip, body: right })).status]).toEqual([path, 429]);
    // Spellings in another case are not the route at all (routes are case-sensitive): 404, or the
    // 429 of the /auth prefix they share. Never a login.
    for (const path of ['/AUTH/LOGIN', '/Auth/Login', '/auth/LOGIN']) {
      const status = (await call('POST', path, { ip, body: right })).status;
      expect([path, [404, 429].includes(status)]).toEqual([path, true]);
    }
    for (const path of ['/REGISTER', '/Auth/forgot-password', '/AUTH/reset-password'])
      expect([path, (await call('POST', path, { ip, body: {} })).status]).toEqual([path, 404]);
  });

  test('outbox de-duplication holds for every spelling of /outbox', async () => {
    const ip = '198.51.100.20';
    const token = await register('canon_bob', ip);
    const note = { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'once only' } };
    expect((await call('POST', '/outbox', { ip, token, body: note })).status).toBe(201);
    for (const path of ['/outbox/', '//outbox', '/%6Futbox'])
      expect([path, (await call('POST', path, { ip, token, body: note })).status]).toEqual([path, 409]);
    for (const path of ['/OUTBOX', '/Outbox'])
      expect([path, (await call('POST', path, { ip, token, body: note })).status]).toEqual([path, 404]);
  });

  test('the services receive the canonical path: other spellings of a route answer as it does', async () => {
    const ip = '198.51.100.22';
    const canonical = await call('GET', '/posts', { ip });
    expect(canonical.status).toBe(200);
    for (const path of ['/posts/', '//posts', '/%70osts', '/./posts'])
      expect([path, (await call('GET', path, { ip })).status]).toEqual([path, 200]);
    expect((await call('GET', '/POSTS', { ip })).status).toBe(404);
  });

  test('a malformed percent-escape is refused at the edge', async () => {
    const res = await call('GET', '/posts/%zz', { ip: '198.51.100.21' });
    expect(res.status).toBe(400);
  });
});

describe('per-account login throttling', () => {
  test('failed logins count per account across addresses; then even the right password is 429', async () => {
    await register('throttled_carol', '198.51.100.30');
    await register('unaffected_dan', '198.51.100.30');
    // Ten guesses, each from another address: no per-IP limit is near.
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/auth/login', {
        ip: `203.0.113.${i + 1}`,
        body: { username: 'throttled_carol', password: `guess-${i}` },
      });
      expect(res.status).toBe(401);
    }
    const right = await call('POST', '/auth/login', {
      ip: '203.0.113.99',
      body: { username: 'THROTTLED_carol', password: 'password123' },
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    const byId = await call('POST', '/auth/login', {
      ip: '203.0.113.98',
      body: { id: '@throttled_carol@social.test', password: 'password123' },
    });
    expect(byId.status).toBe(429);
    // Another account from the same addresses is not affected.
    const other = await call('POST', '/auth/login', {
      ip: '203.0.113.1',
      body: { username: 'unaffected_dan', password: 'password123' },
    });
    expect(other.status).toBe(200);
  });

  test('a successful login clears the failures of that account', async () => {
    await register('forgetful_erin', '198.51.100.31');
    for (let i = 0; i < 9; i++)
      expect(
        (
          await call('POST', '/auth/login', {
            ip: `203.0.114.${i + 1}`,
            body: { username: 'forgetful_erin', password: 'nope' },
          })
        ).status,
      ).toBe(401);
    const body = { username: 'forgetful_erin', password: 'password123' };
    expect((await call('POST', '/auth/login', { ip: '203.0.114.50', body })).status).toBe(200);
    expect(
      (
        await call('POST', '/auth/login', {
          ip: '203.0.114.51',
          body: { username: 'forgetful_erin', password: 'nope' },
        })
      ).status,
    ).toBe(401);
    expect((await call('POST', '/auth/login', { ip: '203.0.114.52', body })).status).toBe(200);
  });
});

describe('registration is one mechanism with one limit', () => {
  const createUser = (username: string) => ({
    type: 'Create',
    objectType: 'User',
    object: { username, password: 'password123' },
  });

  test('POST /outbox Create User shares the registration limit of /register', async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < 20; i++) expect((await call('POST', '/register', { ip, body: {} })).status).toBe(400);
    expect((await call('POST', '/register', { ip, body: {} })).status).toBe(429);
    expect((await call('POST', '/outbox', { ip, body: createUser('via_outbox') })).status).toBe(429);
  });

  test('and the other way round', async () => {
    const ip = '198.51.100.41';
    for (let i = 0; i < 20; i++)
      expect((await call('POST', '/outbox', { ip, body: createUser('x') })).status).toBe(400);
    expect((await call('POST', '/register', { ip, body: {} })).status).toBe(429);
  });
});

describe('anonymous remote lookups have a limit of their own', () => {
  test('the 31st anonymous lookup with a remote mode is 429; a signed-in user is not counted', async () => {
    const ip = '198.51.100.50';
    const token = await register('looker', '198.51.100.51');
    for (const mode of ['remote', 'prefer-local', 'both']) {
      for (let i = 0; i < 10; i++)
        expect((await call('GET', `/users/@looker@social.test?mode=${mode}`, { ip })).status).toBe(200);
    }
    expect((await call('GET', '/users/@looker@social.test?mode=remote', { ip })).status).toBe(429);
    expect((await call('GET', '/users/@looker@social.test?mode=remote', { ip, token })).status).toBe(200);
    // Plain local reads are not this limit's business.
    expect((await call('GET', '/users/@looker@social.test', { ip })).status).toBe(200);
  });

  test("another server's page (`?domain=`) counts too: the 31st anonymous one is 429", async () => {
    const ip = '198.51.100.52';
    for (let i = 0; i < 30; i++)
      expect((await call('GET', '/pages/about?domain=no-such-host.invalid', { ip })).status).not.toBe(429);
    expect((await call('GET', '/pages/about?domain=no-such-host.invalid', { ip })).status).toBe(429);
  });
});

describe('a remote address refused by policy reads like an unreachable one', () => {
  test('a loopback or private origin is a 4xx with the same message as a name that does not resolve', async () => {
    const token = await register('prober', '198.51.100.60');
    const probe = (domain: string) =>
      call('GET', `/users/${encodeURIComponent(`@someone@${domain}`)}?mode=remote`, {
        ip: '198.51.100.61',
        token,
      });
    const refused = await probe('127.0.0.1');
    const privateNet = await probe('10.0.0.1');
    const unresolvable = await probe('no-such-host.invalid');
    for (const res of [refused, privateNet, unresolvable]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'Remote server unreachable' });
    }
  });
});

describe('nosniff', () => {
  test('every response carries X-Content-Type-Options: nosniff, errors and edge answers included', async () => {
    const ip = '198.51.100.70';
    for (const [method, path] of [
      ['GET', '/health'],
      ['GET', '/__routes'],
      ['GET', '/posts'],
      ['GET', '/nope'],
      ['GET', '/.well-known/nodeinfo'],
      ['POST', '/outbox'],
      ['GET', '/posts/%zz'],
    ] as const) {
      const res = await call(method, path, { ip, ...(method === 'POST' ? { body: {} } : {}) });
      expect([path, res.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
    }
  });
});

describe('tokens of the HMAC fallback must expire', () => {
  const sign = (claims: { exp?: number }) => {
    let jwt = new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('@hmac_frank@social.test')
      .setIssuer('https://social.test')
      .setIssuedAt();
    if (claims.exp) jwt = jwt.setExpirationTime(claims.exp);
    return jwt.sign(new TextEncoder().encode(SECRET));
  };

  test('without exp: 401; with exp: accepted', async () => {
    await register('hmac_frank', '198.51.100.80');
    const ip = '198.51.100.81';
    const forever = await sign({});
    expect((await call('GET', '/auth/me', { ip, token: forever })).status).toBe(401);
    const expiring = await sign({ exp: Math.floor(Date.now() / 1000) + 600 });
    const me = await call('GET', '/auth/me', { ip, token: expiring });
    expect(me.status).toBe(200);
    expect((me.body.user as { id: string }).id).toBe('@hmac_frank@social.test');
  });
});

describe('reserved usernames', () => {
  test.each(['admin', 'root', 'administrator', 'support', 'postmaster', 'social', 'social_test'])(
    '%s cannot be registered, by /register or by POST /outbox',
    async (username) => {
      const ip = `198.51.100.${90 + username.length}`;
      const direct = await call('POST', '/register', { ip, body: { username, password: 'password123' } });
      expect(direct.status).toBe(400);
      expect(direct.body.error).toMatch(/reserved/);
      const viaOutbox = await call('POST', '/outbox', {
        ip,
        body: { type: 'Create', objectType: 'User', object: { username, password: 'password123' } },
      });
      expect(viaOutbox.status).toBe(400);
    },
  );
});
