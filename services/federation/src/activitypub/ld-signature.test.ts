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
