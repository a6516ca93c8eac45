/**
 * Multikeys (FEP-521a; the keys of Object Integrity Proofs): an Ed25519 public key named by a
 * proof's `verificationMethod`, found in the document at that URL (the actor's `assertionMethod`,
 * or the key itself), fetched through the safe client, only on the actor's domain. The key must
 * belong to the URL's server (the document and its `controller` there) and be listed in its
 * controller's `assertionMethod`; `controller` says whose it is.
 */
import { isHttpUrl } from '@agora/common/validation';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { Unauthorized } from '@agora/common/errors';
import { domainOf } from '@agora/common/federation';
import { type Json, idOf, isObject, list } from './json';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The multicodec prefix of an Ed25519 public key (0xed, as a varint). */
const ED25519_PREFIX = [0xed, 0x01];

export interface Multikey {
  controller: string;
  publicKey: KeyObject;
}

/** base58btc (Bitcoin's alphabet) to bytes; throws on a character outside it. */
export function decodeBase58btc(text: string): Buffer {
  if (text.length > 200) throw new Error('too long');
  let n = 0n;
  for (const c of text) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) throw new Error('not base58');
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

function ed25519Of(multibase: unknown): KeyObject {
  if (typeof multibase !== 'string' || !multibase.startsWith('z'))
    throw new Unauthorized('The key is not multibase');
  let raw: Buffer;
  try {
    raw = decodeBase58btc(multibase.slice(1));
  } catch {
    throw new Unauthorized('The key is not base58btc');
  }
  if (raw.length !== 34 || raw[0] !== ED25519_PREFIX[0] || raw[1] !== ED25519_PREFIX[1])
    throw new Unauthorized('The key is not an Ed25519 Multikey');
  try {
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(2).toString('base64url') },
      format: 'jwk',
    });
  } catch {
    throw new Unauthorized('The key is not a usable Ed25519 key');
  }
}

/** A document fetched by URL (through the safe client: resolve.ts); undefined when not served. */
export type FetchDocument = (url: string) => Promise<Json | undefined>;

/**
 * The Multikey at `keyId`, for a proof said to be by `actorUrl`, with its controller; throws
 * Unauthorized, with why. The key must be on the actor's domain (nothing is fetched otherwise),
 * in the document at its URL, controlled by an actor of that host who lists it in its
 * `assertionMethod` (FEP-521a: a standalone key document alone says nothing of its controller).
 */
export async function fetchMultikey(
  fetchDoc: FetchDocument,
  keyId: string,
  actorUrl: string,
): Promise<Multikey> {
  if (!isHttpUrl(keyId)) throw new Unauthorized('The proof key id is not an http(s) URL');
  const url = new URL(keyId);
  const host = domainOf(keyId);
  if (!host || host !== domainOf(actorUrl))
    throw new Unauthorized("The proof key is not on the activity's actor's domain");
  url.hash = '';
  const doc = await fetchDoc(url.href).catch(() => undefined);
  if (!doc) throw new Unauthorized('The proof key could not be fetched');
  const found = [doc, ...list(doc.assertionMethod)].find(
    (k): k is Json => isObject(k) && k.id === keyId && k.publicKeyMultibase !== undefined,
  );
  if (!found) throw new Unauthorized('The proof key is not in the document at its URL');
  const controller = typeof found.controller === 'string' ? found.controller : undefined;
  if (
    !controller ||
    domainOf(controller) !== host ||
    (typeof doc.id === 'string' && domainOf(doc.id) !== host)
  )
    throw new Unauthorized('The proof key does not belong to its host');
  const owner = doc.id === controller ? doc : await fetchDoc(controller).catch(() => undefined);
  if (owner?.id !== controller || !list(owner.assertionMethod).some((k) => idOf(k) === keyId))
    throw new Unauthorized("The proof key is not in its controller's assertionMethod");
  return { controller, publicKey: ed25519Of(found.publicKeyMultibase) };
}
