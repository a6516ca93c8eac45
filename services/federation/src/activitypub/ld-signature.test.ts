/**
 * Linked Data Signatures as Fedify makes them (its `signJsonLd`, the one Mastodon-compatible
 * implementation at hand), checked here with the pinned contexts only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { signJsonLd } from '@fedify/fedify';
import { Unauthorized } from '@agora/common/errors';
import { verifies, type ResolvedKey } from '@agora/common/federation';
import { ldSignatureOf, verifyLdSignature } from './ld-signature';

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
  await expect(verifyLdSignature(body, verifyWithKey)).resolves.toMatchObject({ creator: KEY_ID, key });
  // Key order and layout are not what is signed: the canonical form is.
  const reordered = JSON.parse(JSON.stringify({ ...body, actor: body.actor, id: body.id })) as typeof body;
  await expect(verifyLdSignature(reordered, verifyWithKey)).resolves.toBeDefined();
});

test('a changed body, a changed signature option or no signature is refused', async () => {
  const body = await signed();
  const changed = { ...body, object: { ...(body.object as object), content: '<p>bye</p>' } };
  await expect(verifyLdSignature(changed, verifyWithKey)).rejects.toThrow(/does not verify/);
  const later = { ...body, signature: { ...(body.signature as object), created: '2001-01-01T00:00:00Z' } };
  await expect(verifyLdSignature(later, verifyWithKey)).rejects.toThrow(/does not verify/);
  await expect(verifyLdSignature(create(), verifyWithKey)).rejects.toThrow(
    /carries no Linked Data Signature/,
  );
});

test('a context that is not pinned is never fetched: the body is refused', async () => {
  const body = await signed();
  body['@context'] = ['https://www.w3.org/ns/activitystreams', 'https://evil.example/ctx'];
  asked.length = 0;
  await expect(verifyLdSignature(body, verifyWithKey)).rejects.toThrow(
    'JSON-LD context https://evil.example/ctx is not known here',
  );
  expect(asked).toEqual([]);
});

test('a term its contexts do not define fails the check (safe mode) instead of going unsigned', async () => {
  const body = await signed();
  const extra = { ...body, object: { ...(body.object as object), notInAnyContext: 'read unsigned' } };
  await expect(verifyLdSignature(extra, verifyWithKey)).rejects.toThrow(Unauthorized);
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
    const { document } = await verifyLdSignature(body, verifyWithKey);
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
