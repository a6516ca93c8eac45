/**
 * Object Integrity Proofs as Fedify makes them (its `signObject`, `eddsa-jcs-2022`), checked here;
 * Multikeys decoded from base58btc as Fedify encodes them.
 */
import { KeyObject, type webcrypto } from 'node:crypto';
import { signObject } from '@fedify/fedify';
import { Create, Multikey, Note } from '@fedify/fedify/vocab';
import { makeEd25519 } from '../../../../test/harness/ed25519';
import { decodeBase58btc } from './multikey';
import { jcs, objectProofOf, verifyObjectProof } from './object-proof';

const ACTOR = 'https://a.example/users/dave';
const KEY_ID = `${ACTOR}#key-2`;
let pair: webcrypto.CryptoKeyPair;
let key: { publicKey: KeyObject; controller: string };
const keyOf = (id: string) =>
  id === KEY_ID ? Promise.resolve(key) : Promise.reject(new Error(`no key ${id}`));

beforeAll(async () => {
  pair = await makeEd25519();
  key = { publicKey: KeyObject.from(pair.publicKey), controller: ACTOR };
});

/** A Create signed by Fedify, as the JSON it sends (addressed to one actor: nothing to normalize). */
async function proven(): Promise<Record<string, unknown>> {
  const note = new Note({
    id: new URL(`${ACTOR}/notes/1`),
    attribution: new URL(ACTOR),
    content: '<p>hello ünïcode</p>',
    to: new URL('https://b.example/users/carol'),
  });
  const create = new Create({
    id: new URL(`${ACTOR}/notes/1#create`),
    actor: new URL(ACTOR),
    to: new URL('https://b.example/users/carol'),
    object: note,
  });
  const signed = await signObject(create, pair.privateKey, new URL(KEY_ID));
  return (await signed.toJsonLd({ format: 'compact' })) as Record<string, unknown>;
}

test("Fedify's proof verifies, with the key its verificationMethod names", async () => {
  const body = await proven();
  expect(objectProofOf(body)).toMatchObject({ verificationMethod: KEY_ID });
  await expect(verifyObjectProof(body, keyOf)).resolves.toMatchObject({ keyId: KEY_ID, key });
});

test('a changed body or proof option, or no proof, is refused', async () => {
  const body = await proven();
  const changed = { ...body, object: { ...(body.object as object), content: '<p>bye</p>' } };
  await expect(verifyObjectProof(changed, keyOf)).rejects.toThrow(/does not verify/);
  const later = { ...body, proof: { ...(body.proof as object), created: '2001-01-01T00:00:00Z' } };
  await expect(verifyObjectProof(later, keyOf)).rejects.toThrow(/does not verify/);
  const rest = { ...body };
  delete rest.proof;
  await expect(verifyObjectProof(rest, keyOf)).rejects.toThrow(/carries no Object Integrity Proof/);
});

test('JCS: keys sorted by code units, numbers and strings in their ECMAScript forms', () => {
  expect(jcs({ b: [1e21, 0.5, -0, 'é\u2028'], a: { d: null, c: true }, '€': 1, '\r': 2 })).toBe(
    '{"\\r":2,"a":{"c":true,"d":null},"b":[1e+21,0.5,0,"é\u2028"],"€":1}',
  );
});

test("a Multikey's base58btc decodes to Fedify's key bytes", async () => {
  const multikey = new Multikey({
    id: new URL(KEY_ID),
    controller: new URL(ACTOR),
    publicKey: pair.publicKey,
  });
  const json = (await multikey.toJsonLd({ format: 'compact' })) as { publicKeyMultibase: string };
  const raw = decodeBase58btc(json.publicKeyMultibase.slice(1));
  const jwk = KeyObject.from(pair.publicKey).export({ format: 'jwk' });
  expect([...raw.subarray(0, 2)]).toEqual([0xed, 0x01]);
  expect(raw.subarray(2).toString('base64url')).toBe(jwk.x);
});
