/**
 * Federation primitives shared by every service that talks to other servers: HTTP signatures,
 * replay protection, the SSRF-safe outbound client and the signing-key resolver.
 */
export { isForbiddenAddress } from './address';
export { domainOf } from './domain';
export { domainBlocks, type DomainBlocks } from './domain-blocks';
export { SafeFetchError, type SafeFetchFailure } from './errors';
export { createKeyResolver, type KeyResolver, type KeyResolverOptions } from './keys';
export type { Resolver } from './lookup';
export { memoryReplayGuard, redisReplayGuard, type ReplayGuard } from './replay';
export {
  createSafeFetch,
  type SafeFetch,
  type SafeFetchInit,
  type SafeFetchOptions,
  type SafeFetchResponse,
} from './safe-fetch';
export {
  SIGNATURE_DATE_WINDOW_MS,
  digestOf,
  parseSignatureHeader,
  signRequest,
  signingKeyIds,
  verifies,
  verifyRequest,
  type ResolvedKey,
  type SignatureParams,
  type SignRequestInput,
  type VerifiedSignature,
  type VerifyRequestInput,
} from './signature';
export { createFederation, type Federation, type SignedRequest } from './verifier';
export {
  CIRCUIT_DEFAULTS,
  memoryCircuitBreaker,
  redisCircuitBreaker,
  type CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
  type CircuitView,
} from './circuit-breaker';
export {
  DELIVERY_MAX_ATTEMPTS,
  classifyDelivery,
  nextDelay,
  parseRetryAfter,
  retrySchedule,
  type DeliveryAttemptResult,
  type DeliveryOutcome,
} from './delivery-policy';
export { originOf, serverKeyId, sharedInboxOf } from './peers';
export {
  AGORA_PROTOCOL,
  AGORA_PROTOCOL_VERSION,
  AGORA_SOFTWARE,
  fetchNodeInfo,
  nodeInfoOf,
  type NodeInfo,
  type NodeInfoCache,
  type StoredNodeInfo,
} from './nodeinfo';
export { signAsServer } from './server-signer';
export { actorKeyOf } from './actor-keys';
export { contentDigestOf, signRfc9421 } from './rfc9421';
