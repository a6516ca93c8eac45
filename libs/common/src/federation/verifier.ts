/**
 * What a service needs to talk to other servers: the safe outbound client (to fetch signers'
 * keys, and a redirect-free one to deliver), the key resolver over it, the replay guard and the
 * delivery circuit breaker (both in Redis when REDIS_URL is set, so every replica shares them).
 */
import type { Config } from '../config';
import { Unauthorized } from '../errors';
import type { CircuitBreaker } from './circuit-breaker';
import { createKeyResolver } from './keys';
import type { ReplayGuard } from './replay';
import { createSafeFetch, type SafeFetch } from './safe-fetch';
import {
  resolveSigningKey,
  verifies,
  verifyRequest,
  type ResolvedKey,
  type VerifiedSignature,
} from './signature';

export interface SignedRequest {
  method: string;
  /** Path with query, as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody?: Buffer;
  /** The actor the request speaks for; its domain must be the signer's. */
  claimedActor?: string;
  /** The absolute URL the request was sent to (RFC 9421's `@target-uri`). */
  url?: string;
}

export interface Federation {
  /** The one outbound client for every federation fetch. */
  fetch: SafeFetch;
  /** The same client for deliveries: no redirects (a POST must not turn into a GET elsewhere). */
  deliver: SafeFetch;
  /** Per-domain circuit breaker of the delivery worker (shared through Redis when set). */
  breaker: CircuitBreaker;
  /** Verifies an HTTP-signed request; throws Unauthorized (or 503 when the replay store is away). */
  verify(req: SignedRequest): Promise<VerifiedSignature>;
  /**
   * Checks an RSA-SHA256 signature of `text` by the key at `keyId` (a body's signature: a Linked
   * Data Signature's `creator`), fetched as an HTTP signature's is; a key rotated since it was
   * cached is fetched again once. Returns the key (its owner decides whom it speaks for), or
   * throws Unauthorized.
   */
  verifyWithKey(keyId: string, text: Buffer, signature: Buffer): Promise<ResolvedKey>;
  /**
   * The key at `keyId` (its owner), fetched as an HTTP signature's is and cached: looked up before
   * a body signature is worked on, so a key of another actor costs no canonicalisation.
   */
  resolveKey(keyId: string): Promise<ResolvedKey>;
  close(): void;
}

export function createFederation(
  config: Config,
  deps: { replay: ReplayGuard; breaker: CircuitBreaker },
): Federation {
  const options = {
    allowPrivate: config.FEDERATION_ALLOW_PRIVATE,
    hostMap: config.federationHostMap,
    userAgent: `Agora (+${config.publicUrl})`,
  };
  const fetch = createSafeFetch(options);
  const deliver = createSafeFetch({ ...options, maxRedirects: 0 });
  const { replay, breaker } = deps;
  const keys = createKeyResolver({ fetch });
  return {
    fetch,
    deliver,
    breaker,
    verify: (req) =>
      verifyRequest({
        ...req,
        resolveKey: keys.resolveKey,
        forgetKey: keys.forget,
        replay,
      }),
    verifyWithKey: async (keyId, text, signature) => {
      const key = await resolveSigningKey(keys.resolveKey, keyId);
      if (verifies(key, text, signature)) return key;
      if (!keys.forget(keyId)) throw new Unauthorized('Invalid signature');
      const fresh = await resolveSigningKey(keys.resolveKey, keyId);
      if (!verifies(fresh, text, signature)) throw new Unauthorized('Invalid signature');
      return fresh;
    },
    resolveKey: (keyId) => resolveSigningKey(keys.resolveKey, keyId),
    close: () => {
      fetch.close();
      deliver.close();
    },
  };
}
