/**
 * What a service needs to accept signed server-to-server requests: the safe outbound client (to
 * fetch signers' keys), the key resolver over it, and the replay guard (Redis when REDIS_URL is
 * set, so every replica refuses a signature any of them saw).
 */
import type { Config } from '../config';
import { createKeyResolver } from './keys';
import type { ReplayGuard } from './replay';
import { createSafeFetch, type SafeFetch } from './safe-fetch';
import { verifyRequest, type VerifiedSignature } from './signature';

export interface SignedRequest {
  method: string;
  /** Path with query, as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody?: Buffer;
  /** The actor the request speaks for; its domain must be the signer's. */
  claimedActor?: string;
}

export interface Federation {
  /** The one outbound client for every federation fetch. */
  fetch: SafeFetch;
  /** Verifies an HTTP-signed request; throws Unauthorized (or 503 when the replay store is away). */
  verify(req: SignedRequest): Promise<VerifiedSignature>;
  close(): void;
}

export function createFederation(config: Config, replay: ReplayGuard): Federation {
  const fetch = createSafeFetch({
    allowPrivate: config.FEDERATION_ALLOW_PRIVATE,
    hostMap: config.federationHostMap,
    userAgent: `Agora (+${config.publicUrl})`,
  });
  const keys = createKeyResolver({ fetch });
  return {
    fetch,
    verify: (req) =>
      verifyRequest({
        ...req,
        resolveKey: keys.resolveKey,
        forgetKey: keys.forget,
        replay,
      }),
    close: () => fetch.close(),
  };
}
