/**
 * Linked Data Signatures as Fedify makes them (its `signJsonLd`, the one Mastodon-compatible
 * implementation at hand), checked here with the pinned contexts only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { signJsonLd } from '@fedify/fedify';
import { Unauthorized } from '@agora/common/errors';
import { verifies, type ResolvedKey } from '@agora/common/federation';
import { ldSignatureOf, ldTooLarge, verifyLdSignature } from './ld-signature';

const ACTOR = 'https://a.example/users/dave';
const KEY_ID = `${ACTOR}#main-key`;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key: ResolvedKey = {
  publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  ownerDomain: 'a.example',
  owner: ACTOR,
};
const asked: string[] = [];
/** The key store of this test: the one key, checked as the inbox checks any. */
function verifyWithKey(keyId: string, text: Buffer, signature: Buffer): Promise<ResolvedKey> {
  asked.push(keyId);
  if (keyId !== KEY_ID || !verifies(key, text, signature))
    return Promise.reject(new Unauthorized('Invalid signature'));
  return Promise.resolve(key);
}

const resolved: string[] = [];
/** The key lookup of this test: the one key, or another actor's of the same domain. */
function resolveKey(keyId: string): Promise<ResolvedKey> {
  resolved.push(keyId);
  if (keyId === KEY_ID) return Promise.resolve(key);
  if (keyId === OTHER_KEY_ID) return Promise.resolve({ ...key, owner: 'https://a.example/users/erin' });
  return Promise.reject(new Unauthorized('Signing key could not be fetched'));
}
const OTHER_KEY_ID = 'https://a.example/users/erin#main-key';
const keys = { resolveKey, verifyWithKey };

const create = () => ({
  '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
  id: `${ACTOR}/notes/1#create`,
  type: 'Create',
  actor: ACTOR,
  to: ['https://www.w3.org/ns/activitystreams#Public'],
  object: {
    id: `${ACTOR}/notes/1`,
    type: 'Note',
    attributedTo: ACTOR,
    content: '<p>hello</p>',
    inReplyTo: 'https://b.example/notes/9',
    to: ['https://www.w3.org/ns/activitystreams#Public'],
  },
});

async function signed(doc: Record<string, unknown> = create()): Promise<Record<string, unknown>> {
  const cryptoKey = await crypto.subtle.importKey(
    'pkcs8',
    privateKey.export({ type: 'pkcs8', format: 'der' }),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    true,
    ['sign'],
  );
  return signJsonLd(doc, cryptoKey, new URL(KEY_ID), {});
}

test('a body as its creator signed it verifies, with the creator key', async () => {
  const body = await signed();
  expect(ldSignatureOf(body)).toMatchObject({ creator: KEY_ID });
  await expect(verifyLdSignature(body, ACTOR, keys)).resolves.toMatchObject({ creator: KEY_ID, key });
  // Key order and layout are not what is signed: the canonical form is.
  const reordered = JSON.parse(JSON.stringify({ ...body, actor: body.actor, id: body.id })) as typeof body;
  await expect(verifyLdSignature(reordered, ACTOR, keys)).resolves.toBeDefined();
});

test('a changed body, a changed signature option or no signature is refused', async () => {
  const body = await signed();
  const changed = { ...body, object: { ...(body.object as object), content: '<p>bye</p>' } };
  await expect(verifyLdSignature(changed, ACTOR, keys)).rejects.toThrow(/does not verify/);
  const later = { ...body, signature: { ...(body.signature as object), created: '2001-01-01T00:00:00Z' } };
  await expect(verifyLdSignature(later, ACTOR, keys)).rejects.toThrow(/does not verify/);
  await expect(verifyLdSignature(create(), ACTOR, keys)).rejects.toThrow(/carries no Linked Data Signature/);
});

test('a context that is not pinned is never fetched: the body is refused', async () => {
  const body = await signed();
  body['@context'] = ['https://www.w3.org/ns/activitystreams', 'https://evil.example/ctx'];
  asked.length = 0;
  await expect(verifyLdSignature(body, ACTOR, keys)).rejects.toThrow(
    'JSON-LD context https://evil.example/ctx is not known here',
  );
  expect(asked).toEqual([]);
});

test('a term its contexts do not define fails the check (safe mode) instead of going unsigned', async () => {
  const body = await signed();
  const extra = { ...body, object: { ...(body.object as object), notInAnyContext: 'read unsigned' } };
  await expect(verifyLdSignature(extra, ACTOR, keys)).rejects.toThrow(Unauthorized);
});

/**
 * The signature covers the RDF, the inbox reads JSON keys: a forwarder that redefines terms in an
 * inline context keeps the graph (so the signature) while renaming what the keys say. What is
 * read is the document compacted with this server's own context, as its author signed it.
 */
describe('what is read is the signed graph, in this server own terms', () => {
  const ownContext = [
    'https://www.w3.org/ns/activitystreams',
    'https://w3id.org/security/v1',
    { sensitive: 'as:sensitive' },
  ];
  const note = () => {
    const doc = create();
    return {
      ...doc,
      '@context': ownContext,
      cc: [`${ACTOR}/followers`],
      object: { ...doc.object, summary: 'CW', sensitive: true, cc: [`${ACTOR}/followers`] },
    };
  };
  type Doc = Record<string, unknown> & { object: Record<string, unknown> };
  const rewritten = (
    body: Record<string, unknown>,
    context: Record<string, unknown>,
    object: (o: Doc['object']) => Doc['object'],
    top = (d: Doc) => d,
  ) => {
    const doc = structuredClone(body) as Doc;
    doc['@context'] = [...ownContext.slice(0, 2), context];
    doc.object = object(doc.object);
    return top(doc);
  };
  const read = async (body: Record<string, unknown>) => {
    const { document } = await verifyLdSignature(body, ACTOR, keys);
    return document as Doc;
  };
  const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

  test('a term renamed by an inline alias (zz_flag for sensitive) is read under its own name', async () => {
    const body = await signed(note());
    const forged = rewritten(body, { zz_flag: 'as:sensitive' }, ({ sensitive, ...o }) => ({
      ...o,
      zz_flag: sensitive,
    }));
    const doc = await read(forged);
    expect(doc.object.sensitive).toBe(true);
    expect(doc.object.zz_flag).toBeUndefined();
  });

  test('content and summary swapped by the context are read as signed', async () => {
    const body = await signed(note());
    const forged = rewritten(
      body,
      { sensitive: 'as:sensitive', content: 'as:summary', summary: 'as:content' },
      ({ content, summary, ...o }) => ({ ...o, content: summary, summary: content }),
    );
    const doc = await read(forged);
    expect(doc.object).toMatchObject({ content: '<p>hello</p>', summary: 'CW', sensitive: true });
  });

  test('to and cc swapped by the context are read as signed', async () => {
    const body = await signed(note());
    const swap = { to: { '@id': 'as:cc', '@type': '@id' }, cc: { '@id': 'as:to', '@type': '@id' } };
    const forged = rewritten(
      body,
      { sensitive: 'as:sensitive', ...swap },
      ({ to, cc, ...o }) => ({ ...o, to: cc, cc: to }),
      ({ to, cc, ...d }) => ({ ...d, to: cc, cc: to }),
    );
    const doc = await read(forged);
    // Compaction writes one value as itself: the Public collection in its full form.
    expect([doc.to, doc.object.to]).toEqual([PUBLIC, PUBLIC]);
    expect([doc.cc, doc.object.cc]).toEqual([`${ACTOR}/followers`, `${ACTOR}/followers`]);
  });
});

/**
 * Canonicalisation is synchronous work the sender chooses: it is done only for a body of a bounded
 * size, signed by a key of the actor, on its domain (checked first, without canonicalising).
 */
describe('what is canonicalised is bounded, and only for the actor’s own key', () => {
  beforeEach(() => {
    asked.length = 0;
    resolved.length = 0;
  });

  test('a creator on another domain is refused before any key is fetched', async () => {
    const body = await signed();
    const elsewhere = {
      ...body,
      signature: { ...(body.signature as object), creator: 'https://evil.example/k' },
    };
    await expect(verifyLdSignature(elsewhere, ACTOR, keys)).rejects.toThrow(
      "The Linked Data Signature's key is not on the activity's actor's domain",
    );
    expect([...resolved, ...asked]).toEqual([]);
  });

  test('a key of another actor is refused before the body is canonicalised', async () => {
    const body = await signed();
    // A context not known here fails canonicalisation: the refusal comes before it.
    body['@context'] = ['https://www.w3.org/ns/activitystreams', 'https://evil.example/ctx'];
    body.signature = { ...(body.signature as object), creator: OTHER_KEY_ID };
    await expect(verifyLdSignature(body, ACTOR, keys)).rejects.toThrow(
      "The Linked Data Signature's key is not the activity's actor's",
    );
    expect(resolved).toEqual([OTHER_KEY_ID]);
  });

  test('a body too large or with too many nodes is not canonicalised', async () => {
    const mentions = Array.from({ length: 500 }, (_, i) => ({
      type: 'Mention',
      href: `https://b.example/users/u${i}`,
    }));
    const big = await signed({ ...create(), object: { ...create().object, tag: mentions } });
    expect(ldTooLarge(big)).toMatch(/nodes|bytes/);
    const text = await signed({ ...create(), object: { ...create().object, content: 'x'.repeat(200_000) } });
    expect(ldTooLarge(text)).toMatch(/bytes/);
    expect(ldTooLarge(await signed())).toBeUndefined();
    await expect(verifyLdSignature(big, ACTOR, keys)).rejects.toThrow(/too large to check/);
    // Refused before its key is fetched, which comes before canonicalisation.
    expect([...resolved, ...asked]).toEqual([]);
  });
});
