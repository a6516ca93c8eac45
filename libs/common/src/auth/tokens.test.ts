import { generateServerKeyPair, type KeySource } from './keys';
import { TokenService } from './tokens';

/** A key source whose key pair can be rotated, as the settings hold it. */
async function rotatingKeys(): Promise<KeySource & { rotate(): Promise<void> }> {
  let pair = await generateServerKeyPair();
  return {
    publicKey: () => Promise.resolve(pair.publicKey),
    privateKey: () => Promise.resolve(pair.privateKey),
    refresh: () => undefined,
    async rotate() {
      pair = await generateServerKeyPair();
    },
  };
}

let clock = Date.now();
const service = (keys: KeySource, ttlSeconds = 3600) =>
  new TokenService({ domain: 'social.test', keys, ttlSeconds, now: () => clock });

beforeEach(() => {
  clock = Date.now();
});

test('a verified token is accepted again, and refused once it has expired', async () => {
  const tokens = service(await rotatingKeys(), 10); // shorter than the cache
  const token = await tokens.issue('user-1');
  expect((await tokens.verify(token))?.sub).toBe('user-1');
  expect((await tokens.verify(token))?.sub).toBe('user-1');
  expect((await tokens.verifyRs256(token))?.source).toBe('rs256');
  clock += 11_000;
  expect(await tokens.verify(token)).toBeNull();
  expect(await tokens.verifyRs256(token)).toBeNull();
});

test('a token verified under a key that has since been rotated is refused', async () => {
  const keys = await rotatingKeys();
  const tokens = service(keys);
  const token = await tokens.issue('user-1');
  expect((await tokens.verify(token))?.sub).toBe('user-1');
  await keys.rotate();
  expect(await tokens.verify(token)).toBeNull();
  expect(await tokens.verifyRs256(token)).toBeNull();
  const fresh = await tokens.issue('user-1');
  expect((await tokens.verify(fresh))?.sub).toBe('user-1');
});

test('a token that did not verify stays refused; a valid one is not confused with it', async () => {
  const tokens = service(await rotatingKeys());
  const token = await tokens.issue('user-1');
  const forged = `${token.slice(0, -4)}AAAA`;
  expect(await tokens.verify(forged)).toBeNull();
  expect(await tokens.verify(forged)).toBeNull();
  expect((await tokens.verify(token))?.sub).toBe('user-1');
});

test('HMAC fallback tokens are remembered as such: the RS256-only check still refuses them', async () => {
  const { SignJWT } = await import('jose');
  const secret = 'a-shared-secret-of-enough-length-0123456789';
  const tokens = new TokenService({
    domain: 'social.test',
    keys: await rotatingKeys(),
    hmacSecret: secret,
    ttlSeconds: 3600,
    now: () => clock,
  });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('https://social.test')
    .setSubject('user-2')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
  expect((await tokens.verify(token))?.source).toBe('hmac');
  expect(await tokens.verifyRs256(token)).toBeNull();
  expect((await tokens.verify(token))?.source).toBe('hmac');
});
