/**
 * Rate limits and outbox de-duplication of spec 1.6, shared through real Redis: the counts and
 * the window hold across two gateway processes, each limiter counts on its own, X-Forwarded-For
 * is believed only as far as TRUST_PROXY says, and Redis going away falls back to memory.
 */
import { startUpstream, type Upstream } from '../../harness/upstream';
import { spawnGateway, startGateway } from '../../harness/gateway';
import { testEnv, uniqueName } from '../../harness/env';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream('edge.test');
});
afterAll(async () => {
  await upstream?.close();
});

const redisEnv = () => ({ REDIS_URL: testEnv.redisUrl, REDIS_PREFIX: `${uniqueName('t')}:` });
const login = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username: 'x', password: 'y' }),
  });
const outbox = (url: string, body: unknown, token?: string) =>
  fetch(`${url}/outbox`, {
    method: 'POST',
    headers: {
      'content-type': 'application/activity+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
const note = (content: string, to = '@public') => ({
  type: 'Create',
  objectType: 'Post',
  to,
  object: { type: 'Note', content },
});

describe('rate limits', () => {
  test('the 21st strict request in a window is 429 with Retry-After and X-RateLimit-*; /auth/me is not limited', async () => {
    const gw = await startGateway(upstream, redisEnv());
    try {
      for (let i = 1; i <= 20; i++) {
        const res = await login(gw.url);
        expect(res.status).toBe(201);
        expect(res.headers.get('x-ratelimit-limit')).toBe('20');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(20 - i));
      }
      const limited = await login(gw.url);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ error: 'Too many requests' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      // /register shares the strict limiter; /auth/me and /auth/verify-email do not.
      expect((await fetch(`${gw.url}/register`, { method: 'POST' })).status).toBe(429);
      expect((await fetch(`${gw.url}/auth/me`)).status).toBe(200);
      expect((await fetch(`${gw.url}/auth/verify-email?token=x`)).status).toBe(200);
      // The outbox limiter keeps its own counter.
      const ob = await outbox(gw.url, note('own counter'), await upstream.sign('@a@edge.test'));
      expect(ob.status).toBe(201);
      expect(ob.headers.get('x-ratelimit-limit')).toBe('200');
      expect(ob.headers.get('x-ratelimit-remaining')).toBe('199');
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });

  test('inbox limit is 100 per window', async () => {
    const gw = await startGateway(upstream, redisEnv());
    try {
      const post = () =>
        fetch(`${gw.url}/inbox`, {
          method: 'POST',
          headers: { 'content-type': 'application/activity+json' },
          body: '{}',
        });
      for (let i = 0; i < 100; i++) expect((await post()).status).toBe(201);
      expect((await post()).status).toBe(429);
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });

  test('a forged X-Forwarded-For buys no fresh bucket beyond the trusted hops', async () => {
    const untrusted = await startGateway(upstream, redisEnv());
    const oneHop = await startGateway(upstream, { ...redisEnv(), TRUST_PROXY: '1' });
    try {
      for (let i = 0; i < 20; i++) await login(untrusted.url, { 'x-forwarded-for': `10.0.0.${i}` });
      expect((await login(untrusted.url, { 'x-forwarded-for': '10.9.9.9' })).status).toBe(429);
      // Behind one trusted proxy the rightmost entry is the client the proxy saw; what the
      // client itself put in front of it does not count.
      for (let i = 0; i < 20; i++)
        await login(oneHop.url, { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` });
      expect((await login(oneHop.url, { 'x-forwarded-for': '203.0.113.99, 198.51.100.7' })).status).toBe(429);
      expect((await login(oneHop.url, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(201);
    } finally {
      await untrusted[Symbol.asyncDispose]();
      await oneHop[Symbol.asyncDispose]();
    }
  });

  test('RATE_LIMITING_ENABLED=false turns limits and de-duplication off', async () => {
    const gw = await startGateway(upstream, { ...redisEnv(), RATE_LIMITING_ENABLED: 'false' });
    try {
      for (let i = 0; i < 25; i++) expect((await login(gw.url)).status).toBe(201);
      const token = await upstream.sign('@a@edge.test');
      expect((await outbox(gw.url, note('same'), token)).status).toBe(201);
      expect((await outbox(gw.url, note('same'), token)).status).toBe(201);
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });

  test('with Redis unreachable the gateway still limits, per process (fails open to memory)', async () => {
    const gw = await startGateway(upstream, { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: 'x:' });
    try {
      for (let i = 0; i < 20; i++) expect((await login(gw.url)).status).toBe(201);
      expect((await login(gw.url)).status).toBe(429);
      const token = await upstream.sign('@a@edge.test');
      expect((await outbox(gw.url, note('dup while redis is away'), token)).status).toBe(201);
      expect((await outbox(gw.url, note('dup while redis is away'), token)).status).toBe(409);
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });
});

describe('outbox de-duplication', () => {
  test('an identical submission is 409; other users, other content and React pass', async () => {
    const gw = await startGateway(upstream, redisEnv());
    try {
      const alice = await upstream.sign('@alice@edge.test');
      const bob = await upstream.sign('@bob@edge.test');
      expect((await outbox(gw.url, note('hello'), alice)).status).toBe(201);
      const dup = await outbox(gw.url, note('hello'), alice);
      expect(dup.status).toBe(409);
      expect(await dup.json()).toEqual({ error: 'Duplicate activity' });
      expect((await outbox(gw.url, note('hello'), bob)).status).toBe(201);
      expect((await outbox(gw.url, note('hello', '@edge.test'), alice)).status).toBe(201);
      expect((await outbox(gw.url, note('hello again'), alice)).status).toBe(201);
      const react = { type: 'React', target: 'post:1@edge.test', object: { type: 'React', emoji: '👍' } };
      expect((await outbox(gw.url, react, alice)).status).toBe(201);
      expect((await outbox(gw.url, react, alice)).status).toBe(201);
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });

  test('the hold is released when the service answers 4xx, so the corrected resubmission passes', async () => {
    const gw = await startGateway(upstream, redisEnv());
    try {
      const alice = await upstream.sign('@alice@edge.test');
      upstream.status = 400;
      expect((await outbox(gw.url, note('fix me'), alice)).status).toBe(400);
      upstream.status = undefined;
      expect((await outbox(gw.url, note('fix me'), alice)).status).toBe(201);
      expect((await outbox(gw.url, note('fix me'), alice)).status).toBe(409);
    } finally {
      await gw[Symbol.asyncDispose]();
    }
  });
});

describe('two gateway processes sharing one Redis', () => {
  test('hold one combined count and one dedupe window', async () => {
    const env = redisEnv();
    const a = await spawnGateway(upstream, env);
    const b = await spawnGateway(upstream, env);
    try {
      for (let i = 0; i < 10; i++) expect((await login(a.url)).status).toBe(201);
      for (let i = 0; i < 10; i++) expect((await login(b.url)).status).toBe(201);
      expect((await login(a.url)).status).toBe(429);
      expect((await login(b.url)).status).toBe(429);
      const token = await upstream.sign('@carol@edge.test');
      expect((await outbox(a.url, note('replicated'), token)).status).toBe(201);
      expect((await outbox(b.url, note('replicated'), token)).status).toBe(409);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
