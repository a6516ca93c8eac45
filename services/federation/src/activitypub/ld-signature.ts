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
 *
 * The signature covers the RDF graph, not the JSON keys: an inline context may alias or redefine
 * terms (`{"zz_flag": "as:sensitive"}`, `content` for `as:summary`, `to` for `as:cc`) and the
 * graph, so the signature, is unchanged. So what is read of a signed body is never its JSON as
 * received but the graph compacted with this server's own context (`READ_CONTEXT`), as Mastodon
 * does (`ProcessCollectionService`): every key then means what this server means by it.
 */
import { createHash } from 'node:crypto';
import jsonld, { type RemoteDocument } from 'jsonld';
import { Unauthorized } from '@agora/common/errors';
import { domainOf, type ResolvedKey } from '@agora/common/federation';
import contexts from './ld-contexts.json';
import { isObject, type Json } from './json';
import { AP_EXTENSION_TERMS, AP_PUBLIC, AS_CONTEXT, SECURITY_CONTEXT } from './vocab';

const PINNED = new Map<string, unknown>(Object.entries(contexts));
const IDENTITY_CONTEXT = 'https://w3id.org/identity/v1';
/** Canonicalization is bounded: a crafted graph must not hold the inbox. */
const CANON_TIMEOUT_MS = 2000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The terms the inbound code reads (inbound-*.ts, the social service's inbound/*): ActivityStreams,
 * security, and the extensions it knows, defined as Mastodon and LitePub define them.
 */
const READ_CONTEXT = [
  AS_CONTEXT,
  SECURITY_CONTEXT,
  { ...AP_EXTENSION_TERMS, toot: 'http://joinmastodon.org/ns#', Emoji: 'toot:Emoji' },
];

export interface LdSignature {
  creator: string;
  created: string;
  signatureValue: string;
  options: Json;
}

/** The body's `RsaSignature2017`, when it carries one (its shape only: nothing is checked yet). */
export function ldSignatureOf(body: Json): LdSignature | undefined {
  const sig = body.signature;
  if (!isObject(sig)) return undefined;
  const { type, creator, created, signatureValue, ...rest } = sig;
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

/** The Public collection, which compaction writes `as:Public`, in its full form, as received. */
function fullPublic(value: unknown): unknown {
  if (value === 'as:Public') return AP_PUBLIC;
  if (Array.isArray(value)) return value.map(fullPublic);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fullPublic(v)]));
}

/** The signed document in this server's own terms (see above); one value is written as itself. */
async function readable(doc: Json): Promise<Json> {
  try {
    const compacted = await jsonld.compact(doc, READ_CONTEXT, { documentLoader, safe: true });
    return fullPublic(compacted) as Json;
  } catch (err) {
    const rejected = new Unauthorized("The signed body cannot be read in this server's terms");
    rejected.cause = err;
    throw rejected;
  }
}

/** A body larger than these is not canonicalised (ADR 0037): some milliseconds per node, synchronously. */
export const LD_MAX_BYTES = 64 * 1024;
export const LD_MAX_NODES = 400;

/** Nodes (objects and list items) in `value`, counted up to `max` + 1. */
function nodesOf(value: unknown, max: number, seen = 0): number {
  if (typeof value !== 'object' || value === null) return seen;
  const items = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  let count = seen + (Array.isArray(value) ? items.length : 1);
  for (const item of items) {
    if (count > max) break;
    count = nodesOf(item, max, count);
  }
  return count;
}

/**
 * Why the body is too large to have its Linked Data Signature checked here (it is then read from
 * its origin: inbound-forwarded.ts), or undefined. A real reply is some kilobytes.
 */
export function ldTooLarge(body: Json): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > LD_MAX_BYTES) return `${bytes} bytes, over ${LD_MAX_BYTES}`;
  if (nodesOf(body, LD_MAX_NODES) > LD_MAX_NODES) return `over ${LD_MAX_NODES} nodes`;
  return undefined;
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

/** How the `creator` key is had: looked up (its owner), then a signature checked with it. */
export interface LdKeys {
  resolveKey(keyId: string): Promise<ResolvedKey>;
  verifyWithKey(keyId: string, text: Buffer, signature: Buffer): Promise<ResolvedKey>;
}

/**
 * Verifies the body's Linked Data Signature as `actorUrl`'s; returns the key that made it and the
 * document to read: the signed graph compacted with `READ_CONTEXT` (without `signature`), never
 * the JSON as received. What costs nothing is checked before canonicalisation, which the sender
 * could make long: the `creator` on the actor's domain, the body's size (`ldTooLarge`), then the
 * key fetched and owned by the actor. Throws Unauthorized, with why, when there is none, one of
 * those fails, a context is not known here, or it does not verify.
 */
export async function verifyLdSignature(
  body: Json,
  actorUrl: string,
  keys: LdKeys,
): Promise<{ key: ResolvedKey; creator: string; document: Json }> {
  const sig = ldSignatureOf(body);
  if (!sig) throw new Unauthorized('The activity carries no Linked Data Signature (RsaSignature2017)');
  if (!BASE64.test(sig.signatureValue)) throw new Unauthorized('The Linked Data Signature is not base64');
  const actorDomain = domainOf(actorUrl);
  if (!actorDomain || domainOf(sig.creator) !== actorDomain)
    throw new Unauthorized("The Linked Data Signature's key is not on the activity's actor's domain");
  const tooLarge = ldTooLarge(body);
  if (tooLarge)
    throw new Unauthorized(`The body is too large to check its Linked Data Signature (${tooLarge})`);
  const owner = await keys.resolveKey(sig.creator);
  if (owner.owner !== actorUrl || owner.ownerDomain.toLowerCase() !== actorDomain)
    throw new Unauthorized("The Linked Data Signature's key is not the activity's actor's");
  const document = { ...body };
  delete document.signature;
  // As Mastodon: the options' own context, if any, gives way to identity/v1.
  const text = (await hashOf({ ...sig.options, '@context': IDENTITY_CONTEXT })) + (await hashOf(document));
  let key: ResolvedKey;
  try {
    key = await keys.verifyWithKey(sig.creator, Buffer.from(text), Buffer.from(sig.signatureValue, 'base64'));
  } catch (err) {
    if (!(err instanceof Unauthorized) || err.message !== 'Invalid signature') throw err;
    throw new Unauthorized(
      'The Linked Data Signature does not verify: the body is not as its creator signed it',
    );
  }
  return { key, creator: sig.creator, document: await readable(document) };
}
