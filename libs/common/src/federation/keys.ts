/**
 * Finds the public key behind a signature's keyId: the actor document at the keyId URL, fetched
 * through the safe client and cached. The document must belong to the keyId's host (its id, the
 * key's owner and the URL that finally answered), so a peer cannot vouch for another domain's key
 * through an open redirect or a copied document. Unlike the prior implementation, a failed fetch
 * never falls back to a stale key.
 */
import { createPublicKey } from 'node:crypto';
import { Unauthorized } from '../errors';
import { domainOf } from './domain';
import type { SafeFetch } from './safe-fetch';
import type { ResolvedKey } from './signature';

export interface KeyResolverOptions {
  fetch: SafeFetch;
  cacheMs?: number;
  /** A key fetched more recently than this is not dropped by `forget` (forgeries cannot force refetches). */
  minRefetchMs?: number;
  maxEntries?: number;
}

export interface KeyResolver {
  resolveKey: (keyId: string) => Promise<ResolvedKey>;
  /** Drops the cached key so the next resolve fetches it again; false when it was fetched too recently. */
  forget: (keyId: string) => boolean;
}

const ACCEPT = 'application/activity+json';

export function createKeyResolver({
  fetch,
  cacheMs = 10 * 60_000,
  minRefetchMs = 10_000,
  maxEntries = 10_000,
}: KeyResolverOptions): KeyResolver {
  const cache = new Map<string, { key: ResolvedKey; fetchedAt: number }>();
  const inflight = new Map<string, Promise<ResolvedKey>>();

  function remember(keyId: string, key: ResolvedKey): void {
    cache.delete(keyId);
    cache.set(keyId, { key, fetchedAt: Date.now() });
    for (const oldest of cache.keys()) {
      if (cache.size <= maxEntries) break;
      cache.delete(oldest);
    }
  }

  function resolveKey(keyId: string): Promise<ResolvedKey> {
    const hit = cache.get(keyId);
    if (hit && Date.now() - hit.fetchedAt < cacheMs) return Promise.resolve(hit.key);
    const running = inflight.get(keyId);
    if (running) return running;
    const p = fetchKey(fetch, keyId).then(
      (key) => {
        inflight.delete(keyId);
        remember(keyId, key);
        return key;
      },
      (err: unknown) => {
        inflight.delete(keyId);
        throw err;
      },
    );
    inflight.set(keyId, p);
    return p;
  }

  function forget(keyId: string): boolean {
    const hit = cache.get(keyId);
    if (!hit || Date.now() - hit.fetchedAt < minRefetchMs) return false;
    cache.delete(keyId);
    return true;
  }

  return { resolveKey, forget };
}

async function fetchKey(fetch: SafeFetch, keyId: string): Promise<ResolvedKey> {
  let url: URL;
  try {
    url = new URL(keyId);
  } catch {
    throw new Unauthorized('Key id is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Unauthorized('Key id is not an http(s) URL');
  url.hash = '';
  const keyHost = url.host.toLowerCase();

  let res: Awaited<ReturnType<SafeFetch>>;
  try {
    res = await fetch(url.href, { headers: { accept: ACCEPT } });
  } catch (err) {
    throw rejected('Signing key could not be fetched', err);
  }
  if (res.status !== 200) throw new Unauthorized(`Signing key could not be fetched (HTTP ${res.status})`);
  if (domainOf(res.url) !== keyHost) throw new Unauthorized('Key document was served by another host');

  const doc = unwrap(parseJson(res.body));
  const publicKey = pickKey(doc.publicKey, keyId);
  const pem = typeof publicKey === 'string' ? publicKey : publicKey?.publicKeyPem;
  if (typeof pem !== 'string' || !pem) throw new Unauthorized('Key document has no public key');

  if (typeof doc.id !== 'string') throw new Unauthorized('Key document has no id');
  const owner = isRecord(publicKey) ? publicKey.owner : undefined;
  const ownKeyId = isRecord(publicKey) ? publicKey.id : undefined;
  for (const id of [doc.id, owner, ownKeyId]) {
    if (id !== undefined && (typeof id !== 'string' || domainOf(id) !== keyHost)) {
      throw new Unauthorized('Key document does not belong to the key host');
    }
  }
  try {
    createPublicKey(pem);
  } catch (err) {
    throw rejected('Key document holds an unusable public key', err);
  }
  const ownerId = typeof owner === 'string' ? owner : doc.id;
  return { publicKeyPem: pem, ownerDomain: keyHost, owner: ownerId, ownerType: typeOf(doc.type) };
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const doc: unknown = JSON.parse(body.toString('utf8'));
    if (isRecord(doc)) return doc;
  } catch {
    // falls through to the rejection below
  }
  throw new Unauthorized('Key document is not a JSON object');
}

/** This API answers `{ item }`; ActivityPub answers the document itself. */
function unwrap(doc: Record<string, unknown>): Record<string, unknown> {
  return isRecord(doc.item) ? doc.item : doc;
}

/** `publicKey` as one object, a bare PEM string, or a list of keys (the one named by keyId). */
function pickKey(value: unknown, keyId: string): Record<string, unknown> | string | undefined {
  if (typeof value === 'string' || isRecord(value)) return value;
  if (!Array.isArray(value)) return undefined;
  const keys = value.filter(isRecord);
  return keys.find((k) => k.id === keyId) ?? (keys.length === 1 ? keys[0] : undefined);
}

/** The actor type of the key's document (`Application`, `Person`, …), the first when a list. */
function typeOf(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejected(message: string, cause: unknown): Unauthorized {
  const err = new Unauthorized(message);
  err.cause = cause;
  return err;
}
