/**
 * Linked Data Signatures (`RsaSignature2017`), as Mastodon and Fedify put them in an activity's
 * body (`signature`) so that another server can forward it (ActivityPub §7.1.2; ADR 0037). The
 * signed text is the hex SHA-256 of the signature's options (`creator`, `created`, with the
 * identity/v1 context) canonicalized (URDNA2015, as N-Quads) followed by that of the document
 * without `signature`; the signature is RSA-SHA256 of it by the `creator` key.
 *
 * JSON-LD contexts come from `ld-contexts.json` only (the W3C ActivityStreams, security,
 * identity, data-integrity, DID, Multikey and GoToSocial contexts, as Fedify preloads them):
 * nothing is ever fetched, and a document naming another context is not verified. jsonld.js runs
 * in safe mode, so a term its contexts do not define fails the check instead of being dropped
 * from what is signed (and then read here unsigned).
 */
import { createHash } from 'node:crypto';
import jsonld, { type RemoteDocument } from 'jsonld';
import { Unauthorized } from '@agora/common/errors';
import type { ResolvedKey } from '@agora/common/federation';
import contexts from './ld-contexts.json';

type Json = Record<string, unknown>;

const PINNED = new Map<string, unknown>(Object.entries(contexts));
const IDENTITY_CONTEXT = 'https://w3id.org/identity/v1';
/** Canonicalization is bounded: a crafted graph must not hold the inbox. */
const CANON_TIMEOUT_MS = 2000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface LdSignature {
  creator: string;
  created: string;
  signatureValue: string;
  options: Json;
}

/** The body's `RsaSignature2017`, when it carries one (its shape only: nothing is checked yet). */
export function ldSignatureOf(body: Json): LdSignature | undefined {
  const sig = body.signature;
  if (typeof sig !== 'object' || sig === null || Array.isArray(sig)) return undefined;
  const { type, creator, created, signatureValue, ...rest } = sig as Json;
  if (type !== 'RsaSignature2017') return undefined;
  if (typeof creator !== 'string' || typeof created !== 'string' || typeof signatureValue !== 'string')
    return undefined;
  delete rest.id;
  return { creator, created, signatureValue, options: { ...rest, creator, created } };
}

function documentLoader(url: string): Promise<RemoteDocument> {
  const document = PINNED.get(url);
  if (document === undefined)
    return Promise.reject(new Unauthorized(`JSON-LD context ${url} is not known here`));
  return Promise.resolve({ contextUrl: null, documentUrl: url, document: structuredClone(document) });
}

async function hashOf(doc: Json): Promise<string> {
  let canonical: string;
  try {
    canonical = await jsonld.canonize(doc, {
      format: 'application/n-quads',
      documentLoader,
      safe: true,
      canonizeOptions: { algorithm: 'RDFC-1.0', signal: AbortSignal.timeout(CANON_TIMEOUT_MS) },
    });
  } catch (err) {
    const known = err instanceof Unauthorized ? err : findUnauthorized(err);
    if (known) throw known;
    const rejected = new Unauthorized(
      'The Linked Data Signature cannot be checked: the body is not JSON-LD read here',
    );
    rejected.cause = err;
    throw rejected;
  }
  return createHash('sha256').update(canonical).digest('hex');
}

/** jsonld.js wraps a loader's error (`details.cause`): the unknown context's message is kept. */
function findUnauthorized(err: unknown): Unauthorized | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Unauthorized) return e;
    const next = e as { cause?: unknown; details?: { cause?: unknown } };
    e = next.details?.cause ?? next.cause;
  }
  return undefined;
}

/**
 * Verifies the body's Linked Data Signature; returns the key that made it (its `owner` says whom
 * it speaks for). Throws Unauthorized, with why, when there is none, a context is not known here,
 * or it does not verify.
 */
export async function verifyLdSignature(
  body: Json,
  verifyWithKey: (keyId: string, text: Buffer, signature: Buffer) => Promise<ResolvedKey>,
): Promise<{ key: ResolvedKey; creator: string }> {
  const sig = ldSignatureOf(body);
  if (!sig) throw new Unauthorized('The activity carries no Linked Data Signature (RsaSignature2017)');
  if (!BASE64.test(sig.signatureValue)) throw new Unauthorized('The Linked Data Signature is not base64');
  const document = { ...body };
  delete document.signature;
  // As Mastodon: the options' own context, if any, gives way to identity/v1.
  const text = (await hashOf({ ...sig.options, '@context': IDENTITY_CONTEXT })) + (await hashOf(document));
  try {
    const key = await verifyWithKey(
      sig.creator,
      Buffer.from(text),
      Buffer.from(sig.signatureValue, 'base64'),
    );
    return { key, creator: sig.creator };
  } catch (err) {
    if (!(err instanceof Unauthorized) || err.message !== 'Invalid signature') throw err;
    throw new Unauthorized(
      'The Linked Data Signature does not verify: the body is not as its creator signed it',
    );
  }
}
