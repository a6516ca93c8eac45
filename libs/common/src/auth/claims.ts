/**
 * The bounds every accepted token's time and audience claims must keep (docs/security.md,
 * "Tokens"), whichever key signed it (the server's RS256 key or the JWT_SECRET of the HMAC
 * fallback) and wherever it is verified: the services (tokens.ts) and the gateway
 * (services/gateway/src/identity.ts) call this one function after jose has checked the
 * signature, the issuer, an `exp` in the past and `nbf`. jose accepts `exp: 1e300`, any `aud`
 * when none is expected, and an `iat` in the future; a token minted with a leaked secret could
 * then outlive any rotation of the server's own tokens.
 */
import type { JWTPayload } from 'jose';

/** Clocks of the issuer and the verifier may differ by this much. */
export const CLOCK_SKEW_SECONDS = 60;

export interface TokenBounds {
  /** The longest lifetime accepted: TOKEN_TTL, the lifetime of the tokens this server issues. */
  maxLifetimeSeconds: number;
  /** Values of `aud` that name this server (its issuer URL and its public URL). */
  audiences: readonly string[];
}

export function tokenBounds(config: {
  DOMAIN: string;
  publicUrl: string;
  tokenTtlSeconds: number;
}): TokenBounds {
  return {
    maxLifetimeSeconds: config.tokenTtlSeconds,
    audiences: [...new Set([`https://${config.DOMAIN}`, config.publicUrl])],
  };
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Whether a verified token's claims are within the bounds: `exp` present and at most the
 * lifetime ahead; `iat`, when present, not in the future and at most the lifetime before `exp`;
 * `aud`, when present, naming this server (RFC 7519 §4.1.3: a recipient that is not among the
 * audiences must refuse). Every comparison allows CLOCK_SKEW_SECONDS.
 */
export function withinBounds(
  payload: JWTPayload,
  bounds: TokenBounds,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const { exp, iat, aud } = payload;
  const longest = bounds.maxLifetimeSeconds + CLOCK_SKEW_SECONDS;
  if (!isTime(exp) || exp > nowSeconds + longest) return false;
  if (iat !== undefined && (!isTime(iat) || iat > nowSeconds + CLOCK_SKEW_SECONDS || exp - iat > longest))
    return false;
  if (aud !== undefined) {
    const named = Array.isArray(aud) ? aud : [aud];
    if (!named.some((a) => bounds.audiences.includes(a))) return false;
  }
  return true;
}
