/** The key resolver against a scripted fetch: document shapes, ownership checks, caching, forget. */
import { generateKeyPairSync } from 'node:crypto';
import { Unauthorized } from '../errors';
import { SafeFetchError } from './errors';
import { createKeyResolver } from './keys';
import type { SafeFetch, SafeFetchInit, SafeFetchResponse } from './safe-fetch';

const { publicKey: PEM } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const ACTOR = 'https://peer.test/users/@peer.test';
const KEY_ID = `${ACTOR}#main-key`;
const actorDoc = (over: Record<string, unknown> = {}) => ({
  id: ACTOR,
  type: 'Application',
  publicKey: { id: KEY_ID, owner: ACTOR, publicKeyPem: PEM },
  ...over,
});

/** A fetch that answers `doc` (or a full response) and records what it was asked. */
function scripted(answer: () => Partial<SafeFetchResponse> & { doc?: unknown }) {
  const calls: Array<{ url: string; init: SafeFetchInit | undefined }> = [];
  const fetch: SafeFetch = (url, init) => {
    calls.push({ url, init });
    const { doc, ...res } = answer();
    return Promise.resolve({
      status: 200,
      headers: {},
      url,
      body: Buffer.from(doc === undefined ? '' : JSON.stringify(doc)),
      ...res,
    });
  };
  return { fetch, calls };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Unauthorized);
  return err as Error;
}

test('fetches the keyId URL without its fragment, asking for ActivityPub JSON', async () => {
  const { fetch, calls } = scripted(() => ({ doc: actorDoc() }));
  const key = await createKeyResolver({ fetch }).resolveKey(KEY_ID);
  // The owner (publicKey.owner, else the document's id) and its type: the inbox's per-actor rule.
  expect(key).toEqual({
    publicKeyPem: PEM,
    ownerDomain: 'peer.test',
    owner: ACTOR,
    ownerType: 'Application',
  });
  expect(calls).toEqual([{ url: ACTOR, init: { headers: { accept: 'application/activity+json' } } }]);
});

test.each([
  ['publicKey as a PEM string', actorDoc({ publicKey: PEM })],
  ['this API’s { item } wrapper, id as a handle', { item: actorDoc({ id: '@peer.test' }) }],
  [
    'a list of keys, the one named by keyId',
    actorDoc({
      publicKey: [
        { id: `${ACTOR}#other`, publicKeyPem: 'x' },
        { id: KEY_ID, publicKeyPem: PEM },
      ],
    }),
  ],
])('reads %s', async (_, doc) => {
  const { fetch } = scripted(() => ({ doc }));
  await expect(createKeyResolver({ fetch }).resolveKey(KEY_ID)).resolves.toMatchObject({
    publicKeyPem: PEM,
    ownerDomain: 'peer.test',
  });
});

test.each([
  ['an actor id on another host', { doc: actorDoc({ id: 'https://evil.test/users/x' }) }, /does not belong/],
  [
    'a key owner on another host',
    { doc: actorDoc({ publicKey: { owner: 'https://evil.test/u', publicKeyPem: PEM } }) },
    /does not belong/,
  ],
  ['a document without id', { doc: { publicKey: { publicKeyPem: PEM } } }, /has no id/],
  [
    'a document served by another host after redirects',
    { doc: actorDoc(), url: 'https://evil.test/doc' },
    /another host/,
  ],
  ['no public key', { doc: actorDoc({ publicKey: undefined }) }, /has no public key/],
  ['an unusable PEM', { doc: actorDoc({ publicKey: 'garbage' }) }, /unusable public key/],
  ['a body that is not JSON', { body: Buffer.from('<html>') }, /not a JSON object/],
  ['an error status', { status: 404, doc: actorDoc() }, /HTTP 404/],
])('rejects %s', async (_, answer, message) => {
  const { fetch } = scripted(() => answer);
  expect((await rejection(createKeyResolver({ fetch }).resolveKey(KEY_ID))).message).toMatch(message);
});

test('rejects key ids that are not http(s) URLs without fetching', async () => {
  const { fetch, calls } = scripted(() => ({ doc: actorDoc() }));
  const resolver = createKeyResolver({ fetch });
  await rejection(resolver.resolveKey('main-key'));
  await rejection(resolver.resolveKey('file:///etc/passwd#k'));
  expect(calls).toHaveLength(0);
});

test('a failed fetch is an Unauthorized carrying the cause, and is not cached', async () => {
  let fail = true;
  const fetch: SafeFetch = (url) =>
    fail
      ? Promise.reject(new SafeFetchError('forbidden_address'))
      : Promise.resolve({ status: 200, headers: {}, url, body: Buffer.from(JSON.stringify(actorDoc())) });
  const resolver = createKeyResolver({ fetch });
  const err = await rejection(resolver.resolveKey(KEY_ID));
  expect(err.message).toBe('Signing key could not be fetched');
  expect(err.cause).toBeInstanceOf(SafeFetchError);
  fail = false;
  await expect(resolver.resolveKey(KEY_ID)).resolves.toMatchObject({ ownerDomain: 'peer.test' });
});

test('caches for cacheMs, one fetch for concurrent misses', async () => {
  const { fetch, calls } = scripted(() => ({ doc: actorDoc() }));
  const cached = createKeyResolver({ fetch });
  await Promise.all([cached.resolveKey(KEY_ID), cached.resolveKey(KEY_ID), cached.resolveKey(KEY_ID)]);
  await cached.resolveKey(KEY_ID);
  expect(calls).toHaveLength(1);
  const uncached = createKeyResolver({ fetch, cacheMs: 0 });
  await uncached.resolveKey(KEY_ID);
  await uncached.resolveKey(KEY_ID);
  expect(calls).toHaveLength(3);
});

test('forget drops a key old enough to refetch, keeps one fetched just now', async () => {
  const { fetch, calls } = scripted(() => ({ doc: actorDoc() }));
  const strict = createKeyResolver({ fetch, minRefetchMs: 60_000 });
  expect(strict.forget(KEY_ID)).toBe(false);
  await strict.resolveKey(KEY_ID);
  expect(strict.forget(KEY_ID)).toBe(false);
  await strict.resolveKey(KEY_ID);
  expect(calls).toHaveLength(1);

  const eager = createKeyResolver({ fetch, minRefetchMs: 0 });
  await eager.resolveKey(KEY_ID);
  expect(eager.forget(KEY_ID)).toBe(true);
  await eager.resolveKey(KEY_ID);
  expect(calls).toHaveLength(3);
});

test('holds at most maxEntries keys', async () => {
  const { fetch, calls } = scripted(() => ({ doc: actorDoc() }));
  const resolver = createKeyResolver({ fetch, maxEntries: 1 });
  await resolver.resolveKey(KEY_ID);
  await resolver.resolveKey(`${ACTOR}#second`);
  await resolver.resolveKey(KEY_ID);
  expect(calls).toHaveLength(3);
});
