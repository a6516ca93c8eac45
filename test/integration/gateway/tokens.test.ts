/**
 * The gateway's own token verification keeps the bounds the services keep (docs/security.md,
 * "Tokens"): a token with a lifetime beyond TOKEN_TTL, an `aud` naming another service or an
 * `iat` in the future is no identity at the edge. Seen where the edge decides alone: the admin
 * guard (RS256 against the JWKS) and the anonymous-outbox guard (any token, the HMAC fallback
 * included). A refused request never reaches the upstream.
 */
import { SignJWT, type JWTPayload } from 'jose';
import { startUpstream, type Upstream } from '../../harness/upstream';
import { DOMAIN, startGateway } from '../../harness/gateway';
import type { GatewayApp } from '@agora/gateway';

const SECRET = 'a-shared-secret-of-the-hmac-fallback';
const ISSUER = `https://${DOMAIN}`;
const HOUR = 3600;
let upstream: Upstream;
let gw: GatewayApp & { url: string };

beforeAll(async () => {
  upstream = await startUpstream(DOMAIN);
  gw = await startGateway(upstream, { RATE_LIMITING_ENABLED: 'false', JWT_SECRET: SECRET, TOKEN_TTL: '12h' });
});
afterAll(async () => {
  await gw?.[Symbol.asyncDispose]();
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: JWTPayload): JWTPayload => ({ iss: ISSUER, sub: '@eve@edge.test', ...extra });
const hmac = (extra: JWTPayload) =>
  new SignJWT(claims(extra)).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));

const OUT_OF_BOUNDS: Array<[string, () => JWTPayload]> = [
  ['exp: 1e300', () => ({ exp: 1e300 })],
  ['exp beyond TOKEN_TTL', () => ({ iat: now(), exp: now() + 13 * HOUR })],
  ['iat in the future', () => ({ iat: now() + 600, exp: now() + HOUR })],
  ['aud of another service', () => ({ exp: now() + HOUR, aud: 'https://other.test' })],
];

const admin = (token: string) =>
  fetch(`${gw.url}/admin/users`, {
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
const outbox = (token: string) =>
  fetch(`${gw.url}/outbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ type: 'Create', objectType: 'Post', object: { content: `hi ${Math.random()}` } }),
  });

test.each(OUT_OF_BOUNDS)(
  'RS256, %s: the admin guard refuses it (401) and nothing is proxied',
  async (_n, c) => {
    expect((await admin(await upstream.signClaims(claims(c())))).status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  },
);

test.each(OUT_OF_BOUNDS)('HMAC, %s: an anonymous outbox post (401), nothing proxied', async (_n, c) => {
  expect((await outbox(await hmac(c()))).status).toBe(401);
  expect(upstream.requests).toHaveLength(0);
});

test('within the bounds both pass the edge', async () => {
  const fine = { iat: now(), exp: now() + HOUR, aud: ISSUER };
  expect((await admin(await upstream.signClaims(claims(fine)))).status).toBe(200);
  expect((await outbox(await hmac(fine))).status).toBe(201);
  expect(upstream.requests.map((r) => r.url)).toEqual(['/admin/users', '/outbox']);
});
