/**
 * Object Integrity Proofs (FEP-8b32; ADR 0037), as Fedify puts them in an activity's body
 * (`proof`) when its actor has an Ed25519 key: a `DataIntegrityProof` with the `eddsa-jcs-2022`
 * cryptosuite. The signed message is the SHA-256 of the JCS form (RFC 8785) of the proof's
 * options (with the document's `@context`) followed by that of the document without `proof`;
 * the signature is Ed25519 by the `verificationMethod` key (a Multikey: multikey.ts), decoded from
 * `proofValue` (multibase base58btc). No JSON-LD processing: the JSON itself is what is signed.
 */
import { createHash, verify, type KeyObject } from 'node:crypto';
import { Unauthorized } from '@agora/common/errors';
import { type Json, isObject } from './json';
import { decodeBase58btc } from './multikey';

export interface ObjectProof {
  verificationMethod: string;
  created: string;
  proofValue: string;
}

/** The body's one `eddsa-jcs-2022` proof (one object, or a list of one), when it carries one. */
export function objectProofOf(body: Json): ObjectProof | undefined {
  const proofs: unknown[] = Array.isArray(body.proof) ? body.proof : [body.proof];
  const raw = proofs.length === 1 ? proofs[0] : undefined;
  if (!isObject(raw)) return undefined;
  const { type, cryptosuite, verificationMethod, proofPurpose, created, proofValue } = raw;
  if (type !== 'DataIntegrityProof' || cryptosuite !== 'eddsa-jcs-2022' || proofPurpose !== 'assertionMethod')
    return undefined;
  if (typeof verificationMethod !== 'string' || typeof created !== 'string' || typeof proofValue !== 'string')
    return undefined;
  return { verificationMethod, created, proofValue };
}

/** RFC 8785 (JSON Canonicalization Scheme): keys sorted by UTF-16 code units, ES number forms. */
export function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Unauthorized('The body holds a number JSON cannot');
  return JSON.stringify(value ?? null);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Verifies the body's Object Integrity Proof with the key `keyOf` gives for its
 * `verificationMethod` (which also says whose it is). Throws Unauthorized, with why.
 */
export async function verifyObjectProof<K extends { publicKey: KeyObject }>(
  body: Json,
  keyOf: (keyId: string) => Promise<K>,
): Promise<{ key: K; keyId: string }> {
  const proof = objectProofOf(body);
  if (!proof) throw new Unauthorized('The activity carries no Object Integrity Proof (eddsa-jcs-2022)');
  if (!proof.proofValue.startsWith('z')) throw new Unauthorized('The proof value is not base58btc multibase');
  let signature: Buffer;
  try {
    signature = decodeBase58btc(proof.proofValue.slice(1));
  } catch {
    throw new Unauthorized('The proof value is not base58btc multibase');
  }
  const options = {
    '@context': body['@context'],
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    verificationMethod: proof.verificationMethod,
    proofPurpose: 'assertionMethod',
    created: proof.created,
  };
  const document = { ...body };
  delete document.proof;
  const message = Buffer.concat([sha256(jcs(options)), sha256(jcs(document))]);
  const key = await keyOf(proof.verificationMethod);
  let valid = false;
  try {
    valid = verify(null, message, key.publicKey, signature);
  } catch {
    valid = false;
  }
  if (!valid)
    throw new Unauthorized(
      'The Object Integrity Proof does not verify: the body is not as its creator signed it',
    );
  return { key, keyId: proof.verificationMethod };
}
