/**
 * Security tier, tokens (docs/security.md, "Tokens"): whichever key signed a token (the server's
 * RS256 key, or the JWT_SECRET of the HMAC fallback), its lifetime is bounded by TOKEN_TTL, an
 * `aud` must name this server, and an `iat` may not lie in the future beyond a minute of clock
 * skew. Checked through the gateway on `/auth/me`, where the social service verifies again.
 */
import { createPrivateKey } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor } from '../harness/actors';

const SECRET = 'a-shared-secret-of-the-hmac-fallback';
const ISSUER = 'https://social.test';
const HOUR = 3600;
let server: TestServer;
let api: ReturnType<typeof client>;
let subject: string;

beforeAll(async () => {
  server = await bootServer({ JWT_SECRET: SECRET, TOKEN_TTL: '12h', RATE_LIMITING_ENABLED: 'false' });
  api = client(server.url);
  subject = (await registerActor(api, 'tokens_tina')).id;
});
afterAll(async () => {
  await server?.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** A token with exactly these claims (nothing added: `iat` only when given). */
async function sign(alg: 'HS256' | 'RS256', claims: JWTPayload): Promise<string> {
  const jwt = new SignJWT({ iss: ISSUER, sub: subject, ...claims }).setProtectedHeader({ alg });
  if (alg === 'HS256') return jwt.sign(new TextEncoder().encode(SECRET));
  const pem = await server.services[0]!.runtime!.repos.settings.get<string>('privateKey');
  return jwt.sign(createPrivateKey(pem!));
}

const me = async (token: string) => (await api.get('/auth/me', { token })).status;

describe.each(['HS256', 'RS256'] as const)('%s tokens', (alg) => {
  test('within the bounds: accepted, with or without iat, with this server as aud', async () => {
    expect(await me(await sign(alg, { exp: now() + HOUR }))).toBe(200);
    expect(await me(await sign(alg, { iat: now(), exp: now() + 12 * HOUR }))).toBe(200);
    expect(await me(await sign(alg, { iat: now() + 30, exp: now() + HOUR }))).toBe(200);
    expect(await me(await sign(alg, { exp: now() + HOUR, aud: ISSUER }))).toBe(200);
    expect(await me(await sign(alg, { exp: now() + HOUR, aud: ['https://other.test', ISSUER] }))).toBe(200);
  });

  test.each<[string, () => JWTPayload]>([
    ['exp: 1e300', () => ({ exp: 1e300 })],
    ['exp beyond TOKEN_TTL from now', () => ({ exp: now() + 13 * HOUR })],
    ['exp - iat beyond TOKEN_TTL', () => ({ iat: now() - 2 * HOUR, exp: now() + 11 * HOUR })],
    ['iat in the future', () => ({ iat: now() + 10 * 60, exp: now() + HOUR })],
    ['aud of another service', () => ({ exp: now() + HOUR, aud: 'https://other.test' })],
    ['aud of other services only', () => ({ exp: now() + HOUR, aud: ['https://a.test', 'https://b.test'] })],
    ['exp not a number', () => ({ exp: 'tomorrow' as unknown as number })],
  ])('%s → 401', async (_name, claims) => {
    expect(await me(await sign(alg, claims()))).toBe(401);
  });
});

test('an RS256 token without exp is refused like an HMAC one', async () => {
  expect(await me(await sign('RS256', { iat: now() }))).toBe(401);
});
