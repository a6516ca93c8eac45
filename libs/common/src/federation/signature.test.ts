/**
 * HTTP signatures with real RSA keys: a round trip, and every rejection of quality-bars.md
 * (Mastodon's signature_verification_spec, CVE-2024-23832). The helper `signWith` builds
 * signatures independently of signRequest, so the verifier is not only checked against itself.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { BadRequest, Unauthorized } from '../errors';
import { memoryReplayGuard, type ReplayGuard } from './replay';
import {
  digestOf,
  parseSignatureHeader,
  signRequest,
  verifyRequest,
  type ResolvedKey,
  type VerifyRequestInput,
} from './signature';

const rsa = (modulusLength: number) =>
  generateKeyPairSync('rsa', {
    modulusLength,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const peer = rsa(2048);
const stranger = rsa(2048);

const KEY_ID = 'https://peer.test/users/@peer.test#main-key';
const NOW = new Date('2025-03-01T12:00:00Z');
const BODY = '{"type":"Create","actorId":"@alice@peer.test","object":{"content":"a=b, c"}}';
const peerKey: ResolvedKey = { publicKeyPem: peer.publicKey, ownerDomain: 'peer.test' };

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  rawBody?: Buffer;
}

/** A request as the inbox would receive it, signed by signRequest. */
function signed(
  opts: { method?: string; url?: string; body?: string; date?: string; privateKeyPem?: string } = {},
) {
  const { method = 'POST', url = 'https://home.test/inbox', date = NOW.toUTCString() } = opts;
  const body = 'body' in opts ? opts.body : BODY;
  const u = new URL(url);
  const added = signRequest({
    method,
    url,
    headers: { Date: date },
    ...(body === undefined ? {} : { body }),
    keyId: KEY_ID,
    privateKeyPem: opts.privateKeyPem ?? peer.privateKey,
  });
  const req: Req = { method, path: `${u.pathname}${u.search}`, headers: { host: u.host, date, ...added } };
  if (body !== undefined) req.rawBody = Buffer.from(body);
  return req;
}

/** A Signature header over the given header names, built without signRequest. */
function signWith(names: string[], req: Req, params = 'algorithm="rsa-sha256",'): string {
  const text = names
    .map((n) =>
      n === '(request-target)'
        ? `(request-target): ${req.method.toLowerCase()} ${req.path}`
        : `${n}: ${req.headers[n]}`,
    )
    .join('\n');
  const signature = sign('sha256', Buffer.from(text), peer.privateKey).toString('base64');
  return `keyId="${KEY_ID}",${params}headers="${names.join(' ')}",signature="${signature}"`;
}

function verify(req: Req, overrides: Partial<VerifyRequestInput> = {}) {
  return verifyRequest({
    ...req,
    now: NOW,
    resolveKey: (keyId) =>
      keyId === KEY_ID ? Promise.resolve(peerKey) : Promise.reject(new Error(`unknown key ${keyId}`)),
    replay: memoryReplayGuard(),
    ...overrides,
  });
}

async function rejection(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Unauthorized);
  return (err as Error).message;
}

describe('digestOf', () => {
  test('is SHA-256 of the bytes in base64, the same for a string and its buffer', () => {
    expect(digestOf('')).toBe('SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(digestOf(Buffer.from(BODY))).toBe(digestOf(BODY));
    expect(digestOf(BODY)).toBe(`SHA-256=${createHash('sha256').update(BODY).digest('base64')}`);
  });
});

describe('signRequest', () => {
  test('adds date, digest and a signature over (request-target) host date digest', () => {
    const before = Date.now();
    const added = signRequest({
      method: 'POST',
      url: 'https://home.test/inbox',
      body: BODY,
      keyId: KEY_ID,
      privateKeyPem: peer.privateKey,
    });
    expect(Object.keys(added).sort()).toEqual(['date', 'digest', 'signature', 'x-signature-nonce']);
    expect(Math.abs(Date.parse(added.date!) - before)).toBeLessThan(5000);
    expect(added.digest).toBe(digestOf(BODY));
    expect(parseSignatureHeader(added.signature!)).toMatchObject({
      keyId: KEY_ID,
      algorithm: 'rsa-sha256',
      headers: ['(request-target)', 'host', 'date', 'digest', 'x-signature-nonce'],
    });
  });

  test('a GET gets no digest, and a given Date is kept rather than added', () => {
    const date = NOW.toUTCString();
    const added = signRequest({
      method: 'GET',
      url: 'https://peer.test/outbox?from=a&to=b',
      headers: { Date: date },
      keyId: KEY_ID,
      privateKeyPem: peer.privateKey,
    });
    expect(Object.keys(added).sort()).toEqual(['signature', 'x-signature-nonce']);
    expect(parseSignatureHeader(added.signature!).headers).toEqual([
      '(request-target)',
      'host',
      'date',
      'x-signature-nonce',
    ]);
  });

  test('two identical requests in the same second get different signatures (a signed nonce)', () => {
    const sign = () =>
      signRequest({
        method: 'GET',
        url: 'https://remote.example/users/x',
        headers: { date: 'Thu, 26 Nov 2026 01:00:00 GMT' },
        keyId: 'https://peer.example/actor#main-key',
        privateKeyPem: peer.privateKey,
      });
    const [one, two] = [sign(), sign()];
    expect(one['x-signature-nonce']).not.toBe(two['x-signature-nonce']);
    expect(one.signature).not.toBe(two.signature);
  });
});

describe('parseSignatureHeader', () => {
  test('reads quoted parameters whose values hold "=" and ","', () => {
    const p = parseSignatureHeader(
      'keyId="https://peer.test/k?a=1,b=2#main-key", algorithm="RSA-SHA256",headers="(request-target) Host Date",signature="YWJj+/=="',
    );
    expect(p).toEqual({
      keyId: 'https://peer.test/k?a=1,b=2#main-key',
      algorithm: 'rsa-sha256',
      headers: ['(request-target)', 'host', 'date'],
      signature: 'YWJj+/==',
    });
    expect(parseSignatureHeader('keyId="k",signature="YWJj"')).toMatchObject({
      algorithm: 'hs2019',
      headers: ['date'],
    });
  });

  test.each([
    ['empty', ''],
    ['not name=value', 'Signature abc'],
    ['no keyId', 'algorithm="rsa-sha256",signature="YWJj"'],
    ['no signature', 'keyId="k",algorithm="rsa-sha256"'],
    ['signature not base64', 'keyId="k",signature="not base64!"'],
    ['a parameter twice', 'keyId="k",keyId="j",signature="YWJj"'],
    ['missing comma', 'keyId="k" signature="YWJj"'],
    ['trailing comma', 'keyId="k",signature="YWJj",'],
    ['unterminated quote', 'keyId="k,signature="YWJj"'],
    ['empty headers', 'keyId="k",headers="  ",signature="YWJj"'],
  ])('rejects a malformed header (%s)', (_, value) => {
    expect(() => parseSignatureHeader(value)).toThrow(BadRequest);
  });
});

describe('verifyRequest accepts', () => {
  test('a signed POST, naming the key and the signer domain', async () => {
    await expect(verify(signed(), { claimedActor: '@alice@peer.test' })).resolves.toMatchObject({
      keyId: KEY_ID,
      signerDomain: 'peer.test',
      scheme: 'draft-cavage',
    });
  });

  test('a signed GET with a query, for an actor given by URL or as the server actor', async () => {
    const req = signed({
      method: 'GET',
      url: 'https://home.test/outbox?from=%40peer.test&since=x',
      body: undefined,
    });
    expect(req.headers.digest).toBeUndefined();
    await expect(verify(req, { claimedActor: 'https://peer.test/users/alice' })).resolves.toMatchObject({
      signerDomain: 'peer.test',
    });
    await expect(verify(req, { claimedActor: '@peer.test' })).resolves.toBeDefined();
  });

  test('hs2019 and an absent algorithm as rsa-sha256 with the RSA key', async () => {
    const req = signed();
    const hs2019 = {
      ...req,
      headers: { ...req.headers, signature: req.headers.signature!.replace('rsa-sha256', 'hs2019') },
    };
    await expect(verify(hs2019)).resolves.toBeDefined();
    const bare = {
      ...req,
      headers: { ...req.headers, signature: req.headers.signature!.replace('algorithm="rsa-sha256",', '') },
    };
    await expect(verify(bare)).resolves.toBeDefined();
  });

  test('a Date just inside the hour either way', async () => {
    const inside = 59 * 60_000;
    await expect(
      verify(signed({ date: new Date(NOW.getTime() - inside).toUTCString() })),
    ).resolves.toBeDefined();
    await expect(
      verify(signed({ date: new Date(NOW.getTime() + inside).toUTCString() })),
    ).resolves.toBeDefined();
  });

  test('a SHA-512 digest that matches', async () => {
    const req = signed();
    req.headers.digest = `SHA-512=${createHash('sha512').update(BODY).digest('base64')}`;
    req.headers.signature = signWith(['(request-target)', 'host', 'date', 'digest'], req);
    await expect(verify(req)).resolves.toBeDefined();
  });

  test('remembers the signature until its Date leaves the window', async () => {
    const ttls: number[] = [];
    const spy: ReplayGuard = { seen: (_hash, ttl) => (ttls.push(ttl), Promise.resolve(false)) };
    await verify(signed({ date: new Date(NOW.getTime() - 30 * 60_000).toUTCString() }), { replay: spy });
    expect(ttls).toEqual([30 * 60_000 + 1000]);
  });
});

describe('verifyRequest rejects', () => {
  test('an unsigned request', async () => {
    const req = signed();
    delete req.headers.signature;
    expect(await rejection(verify(req))).toBe('Missing Signature header');
  });

  test('a malformed Signature header, as 401', async () => {
    const req = signed();
    req.headers.signature = 'keyId=k';
    expect(await rejection(verify(req))).toMatch(/Malformed Signature header/);
  });

  test('an algorithm other than rsa-sha256 or hs2019', async () => {
    const req = signed();
    req.headers.signature = req.headers.signature!.replace('rsa-sha256', 'hmac-sha256');
    expect(await rejection(verify(req))).toMatch(/Unsupported signature algorithm/);
  });

  test.each([
    ['(request-target)', ['host', 'date', 'digest']],
    ['host', ['(request-target)', 'date', 'digest']],
    ['date', ['(request-target)', 'host', 'digest']],
    ['digest', ['(request-target)', 'host', 'date']],
  ])('a signature that does not cover %s', async (left, names) => {
    const req = signed();
    req.headers.signature = signWith(names, req);
    expect(await rejection(verify(req))).toBe(`Signature must cover ${left}`);
  });

  test('a signed header absent from the request, and unsupported pseudo-headers', async () => {
    const req = signed();
    req.headers.signature = signWith(['(request-target)', 'host', 'date', 'digest', 'content-type'], req);
    expect(await rejection(verify(req))).toBe('Signed header content-type is missing');
    req.headers.signature = signWith(['(request-target)', '(created)', 'host', 'date', 'digest'], req);
    expect(await rejection(verify(req))).toMatch(/Unsupported signed pseudo-header/);
  });

  test('a missing or unreadable Date', async () => {
    const req = signed();
    req.headers.date = 'yesterday-ish';
    req.headers.signature = signWith(['(request-target)', 'host', 'date', 'digest'], req);
    expect(await rejection(verify(req))).toBe('Invalid Date header');
    delete req.headers.date;
    expect(await rejection(verify(req))).toBe('Signed header date is missing');
  });

  test('a stale Date and a future Date (more than an hour off)', async () => {
    const off = 61 * 60_000;
    const stale = signed({ date: new Date(NOW.getTime() - off).toUTCString() });
    expect(await rejection(verify(stale))).toBe('Date header is too old');
    const future = signed({ date: new Date(NOW.getTime() + off).toUTCString() });
    expect(await rejection(verify(future))).toBe('Date header is in the future');
  });

  test('a body whose bytes do not match the digest', async () => {
    const req = signed();
    req.rawBody = Buffer.from(BODY.replace('Create', 'Delete'));
    expect(await rejection(verify(req))).toBe('Digest does not match the body');
    // The digest is over the raw bytes, not a re-serialisation of the parsed JSON.
    const spaced = signed({ body: '{ "type": "Create" }' });
    spaced.rawBody = Buffer.from(JSON.stringify(JSON.parse('{ "type": "Create" }')));
    expect(await rejection(verify(spaced))).toBe('Digest does not match the body');
  });

  test('a digest in an unsupported algorithm only', async () => {
    const req = signed();
    req.headers.digest = `MD5=${createHash('md5').update(BODY).digest('base64')}`;
    req.headers.signature = signWith(['(request-target)', 'host', 'date', 'digest'], req);
    expect(await rejection(verify(req))).toMatch(/Unsupported Digest algorithm/);
  });

  test('a tampered body that comes with a matching new digest', async () => {
    const req = signed();
    const tampered = BODY.replace('Create', 'Delete');
    req.rawBody = Buffer.from(tampered);
    req.headers.digest = digestOf(tampered);
    expect(await rejection(verify(req))).toBe('Invalid signature');
  });

  test('a changed path, query or method', async () => {
    const req = signed({ url: 'https://home.test/inbox?x=1' });
    expect(await rejection(verify({ ...req, path: '/users/bob/inbox?x=1' }))).toBe('Invalid signature');
    expect(await rejection(verify({ ...req, path: '/inbox?x=2' }))).toBe('Invalid signature');
    expect(await rejection(verify({ ...req, method: 'PUT' }))).toBe('Invalid signature');
  });

  test('a changed Host', async () => {
    const req = signed();
    expect(await rejection(verify({ ...req, headers: { ...req.headers, host: 'other.test' } }))).toBe(
      'Invalid signature',
    );
  });

  test('a signature made with another key than the keyId names', async () => {
    expect(await rejection(verify(signed({ privateKeyPem: stranger.privateKey })))).toBe('Invalid signature');
  });

  test('a signer speaking for an actor of another domain (CVE-2024-23832)', async () => {
    const req = signed();
    expect(await rejection(verify(req, { claimedActor: '@mallory@victim.test' }))).toBe(
      'A key of peer.test cannot speak for an actor of victim.test',
    );
    expect(await rejection(verify(req, { claimedActor: 'https://victim.test/users/x' }))).toMatch(
      /cannot speak for an actor of victim.test/,
    );
    expect(await rejection(verify(req, { claimedActor: 'mallory' }))).toBe(
      'Cannot tell the domain of the actor',
    );
  });

  test('a replayed signature; a forgery carrying a copied signature does not use it up', async () => {
    const replay = memoryReplayGuard();
    const req = signed();
    const forged = { ...req, path: '/users/bob/inbox' };
    expect(await rejection(verify(forged, { replay }))).toBe('Invalid signature');
    await expect(verify(req, { replay })).resolves.toBeDefined();
    expect(await rejection(verify(req, { replay }))).toBe('Replayed signature');
  });

  test('a key that cannot be fetched', async () => {
    const msg = await rejection(
      verify(signed(), { resolveKey: () => Promise.reject(new Error('ECONNREFUSED')) }),
    );
    expect(msg).toBe('Signing key could not be fetched');
  });

  test('a key that is not RSA, or RSA under 2048 bits', async () => {
    const ed = generateKeyPairSync('ed25519', {
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const weak = rsa(1024);
    const cases = [
      [ed.publicKey, 'Signing key must be RSA of at least 2048 bits'],
      [weak.publicKey, 'Signing key must be RSA of at least 2048 bits'],
      ['not a pem', 'Signing key is not a usable public key'],
    ];
    for (const [publicKeyPem = '', message] of cases) {
      const resolveKey = () => Promise.resolve({ publicKeyPem, ownerDomain: 'peer.test' });
      expect(await rejection(verify(signed(), { resolveKey }))).toBe(message);
    }
  });
});

describe('key rotation', () => {
  test('a signature that fails with the cached key is checked once more with a fresh key', async () => {
    const rotated = rsa(2048);
    const served = [peerKey, { publicKeyPem: rotated.publicKey, ownerDomain: 'peer.test' }];
    let fetched = 0;
    const resolveKey = () => Promise.resolve(served[Math.min(fetched++, 1)]!);
    const req = signed({ privateKeyPem: rotated.privateKey });
    await expect(verify(req, { resolveKey, forgetKey: () => true })).resolves.toBeDefined();
    expect(fetched).toBe(2);
  });

  test('no second look when the resolver keeps its key (fetched too recently)', async () => {
    let fetched = 0;
    const resolveKey = () => (fetched++, Promise.resolve(peerKey));
    const req = signed({ privateKeyPem: stranger.privateKey });
    expect(await rejection(verify(req, { resolveKey, forgetKey: () => false }))).toBe('Invalid signature');
    expect(fetched).toBe(1);
  });
});
