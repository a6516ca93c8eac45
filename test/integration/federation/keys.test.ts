/**
 * Signatures over the wire: a fake peer serves its actor document, a sender signs and delivers
 * through the safe client, a fake inbox verifies with the key resolver. Covers key fetching,
 * ownership checks through redirects, key rotation and replay on real HTTP.
 */
import { generateKeyPairSync } from 'node:crypto';
import {
  createKeyResolver,
  createSafeFetch,
  memoryReplayGuard,
  signRequest,
  verifyRequest,
  type KeyResolver,
  type ReplayGuard,
} from '@agora/common/federation';
import { json, startPeer, type FakePeer, type Received } from '../../harness/fake-peer';

const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const ACTOR = 'http://peer.test/users/@peer.test';
const KEY_ID = `${ACTOR}#main-key`;
let sent = 0;
/** A new activity each time: RSA signatures are deterministic, so equal requests in one second are replays. */
const activity = () =>
  JSON.stringify({ id: `activity:${++sent}@peer.test`, type: 'Create', actorId: '@alice@peer.test' });

let keys = rsa();
let peer: FakePeer;
let evil: FakePeer;
const clients: Array<{ close(): void }> = [];

function safeFetch(extra: Parameters<typeof createSafeFetch>[0] = {}) {
  const c = createSafeFetch({
    allowPrivate: true,
    timeoutMs: 2000,
    hostMap: { 'peer.test': peer.address, 'evil.test': evil.address },
    ...extra,
  });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  const evilKeys = rsa();
  peer = await startPeer((req, res) => {
    if (req.url === '/users/@peer.test' && req.headers.accept === 'application/activity+json') {
      return json(res, 200, {
        id: ACTOR,
        type: 'Application',
        publicKey: { id: KEY_ID, owner: ACTOR, publicKeyPem: keys.publicKey },
      });
    }
    if (req.url === '/redirect') return res.writeHead(302, { location: 'http://evil.test/doc' }).end();
    json(res, 404, { error: 'Not found' });
  });
  // Serves a document claiming to be peer.test's actor, with its own key.
  evil = await startPeer((_req, res) =>
    json(res, 200, { id: ACTOR, publicKey: { id: KEY_ID, owner: ACTOR, publicKeyPem: evilKeys.publicKey } }),
  );
});

afterAll(async () => {
  for (const c of clients) c.close();
  await peer.close();
  await evil.close();
});

const actorFetches = () => peer.received.filter((r) => r.url === '/users/@peer.test').length;

/** A fake home.test inbox that verifies what it receives and answers like POST /inbox. */
async function inbox(resolver: KeyResolver, replay: ReplayGuard) {
  const home = await startPeer(() => undefined);
  home.handler = (req: Received, res) => {
    const actor = (JSON.parse(req.body.toString()) as { actorId: string }).actorId;
    verifyRequest({
      method: req.method,
      path: req.url,
      headers: req.headers,
      rawBody: req.body,
      resolveKey: resolver.resolveKey,
      forgetKey: resolver.forget,
      claimedActor: actor,
      replay,
    }).then(
      (v) => json(res, 202, { accepted: true, signer: v.signerDomain }, 'application/json'),
      (err: Error) => json(res, 401, { error: err.message }, 'application/json'),
    );
  };
  return home;
}

async function deliver(home: FakePeer, body = activity(), privateKeyPem = keys.privateKey) {
  const fetch = safeFetch({ hostMap: { 'home.test': home.address } });
  const url = 'http://home.test/inbox';
  const headers = { 'content-type': 'application/activity+json' };
  const added = signRequest({ method: 'POST', url, headers, body, keyId: KEY_ID, privateKeyPem });
  const res = await fetch(url, { method: 'POST', headers: { ...headers, ...added }, body });
  return { status: res.status, body: JSON.parse(res.body.toString()) as Record<string, unknown>, added };
}

test('a signed delivery is verified with the key fetched from the peer; a replay is refused', async () => {
  const home = await inbox(createKeyResolver({ fetch: safeFetch() }), memoryReplayGuard());
  try {
    const body = activity();
    const first = await deliver(home, body);
    expect(first).toMatchObject({ status: 202, body: { accepted: true, signer: 'peer.test' } });
    expect(home.received[0]?.headers.host).toBe('home.test');

    const fetch = safeFetch({ hostMap: { 'home.test': home.address } });
    const again = await fetch('http://home.test/inbox', {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', ...first.added },
      body,
    });
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body.toString())).toEqual({ error: 'Replayed signature' });
  } finally {
    await home.close();
  }
});

test('a signer speaking for an actor of another domain is refused', async () => {
  const home = await inbox(createKeyResolver({ fetch: safeFetch() }), memoryReplayGuard());
  try {
    const forged = JSON.stringify({ type: 'Delete', actorId: '@admin@home.test' });
    expect(await deliver(home, forged)).toMatchObject({
      status: 401,
      body: { error: 'A key of peer.test cannot speak for an actor of home.test' },
    });
  } finally {
    await home.close();
  }
});

test('keys are cached; after a rotation one refetch picks up the new key', async () => {
  const resolver = createKeyResolver({ fetch: safeFetch(), minRefetchMs: 0 });
  const home = await inbox(resolver, memoryReplayGuard());
  try {
    const before = actorFetches();
    expect((await deliver(home)).status).toBe(202);
    expect((await deliver(home)).status).toBe(202);
    expect(actorFetches() - before).toBe(1);

    keys = rsa();
    expect((await deliver(home)).status).toBe(202);
    expect(actorFetches() - before).toBe(2);
  } finally {
    await home.close();
  }
});

test('a key fetched moments ago is not refetched for a signature that fails (forgery)', async () => {
  const resolver = createKeyResolver({ fetch: safeFetch() });
  const home = await inbox(resolver, memoryReplayGuard());
  try {
    const before = actorFetches();
    expect((await deliver(home)).status).toBe(202);
    const forged = await deliver(home, activity(), rsa().privateKey);
    expect(forged).toMatchObject({ status: 401, body: { error: 'Invalid signature' } });
    expect(actorFetches() - before).toBe(1);
  } finally {
    await home.close();
  }
});

test('a key document reached through a redirect to another host is refused', async () => {
  const resolver = createKeyResolver({ fetch: safeFetch() });
  await expect(resolver.resolveKey('http://peer.test/redirect#main-key')).rejects.toThrow(
    'Key document was served by another host',
  );
  expect(evil.received.length).toBeGreaterThan(0);
});

test('without allowPrivate the key of a peer on loopback cannot be fetched, so nothing verifies', async () => {
  const strict = createSafeFetch({ hostMap: { 'peer.test': peer.address } });
  clients.push(strict);
  const home = await inbox(createKeyResolver({ fetch: strict }), memoryReplayGuard());
  try {
    const before = actorFetches();
    expect(await deliver(home)).toMatchObject({
      status: 401,
      body: { error: 'Signing key could not be fetched' },
    });
    expect(actorFetches()).toBe(before);
  } finally {
    await home.close();
  }
});
