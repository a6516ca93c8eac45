/**
 * Who is calling, as far as the edge needs to know (rate-limit keys, dedupe actor, the admin
 * guard): the token of spec 5.2 verified RS256 against the server's JWKS (fetched from the
 * federation service and refetched when an unknown key id appears, so a rotated key is picked
 * up), then the HMAC fallback, both held to the claim bounds the services apply (lifetime,
 * `iat`, `aud`: `withinBounds` of libs/common auth/claims.ts). Services verify again and load the
 * user (defence in depth).
 */
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { extractToken, tokenBounds, withinBounds } from '@agora/common/auth';
import type { Config } from '@agora/common/config';

export interface EdgeIdentity {
  sub?: string;
  source?: 'rs256' | 'hmac';
  /** A token was sent but did not verify. */
  invalid?: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    edge?: EdgeIdentity;
  }
}

export interface Verifier {
  rs256(token: string): Promise<string | undefined>;
  any(token: string): Promise<EdgeIdentity>;
}

/**
 * `jwksUrls`: the key set's URL on every federation replica; a fetch that fails on one tries
 * the next (a replica restarting must not make every token look invalid).
 */
export function createVerifier(config: Config, jwksUrls: string | readonly string[]): Verifier {
  const issuer = `https://${config.DOMAIN}`;
  const urls = typeof jwksUrls === 'string' ? [jwksUrls] : jwksUrls;
  const jwks = createRemoteJWKSet(new URL(urls[0]!), {
    cooldownDuration: 10_000,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 3000,
    [customFetch]: async (_url, options) => {
      let failure: unknown;
      for (const url of urls) {
        try {
          return await fetch(url, options);
        } catch (err) {
          failure = err;
        }
      }
      throw failure;
    },
  });
  const hmac = config.hmacSecret ? new TextEncoder().encode(config.hmacSecret) : undefined;
  const bounds = tokenBounds(config);
  const rs256 = async (token: string) => {
    try {
      const { payload } = await jwtVerify(token, jwks, { algorithms: ['RS256'], issuer });
      return typeof payload.sub === 'string' && withinBounds(payload, bounds) ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    rs256,
    async any(token) {
      const sub = await rs256(token);
      if (sub) return { sub, source: 'rs256' };
      if (hmac) {
        try {
          const { payload } = await jwtVerify(token, hmac, {
            algorithms: ['HS256', 'HS384', 'HS512'],
            issuer,
          });
          if (typeof payload.sub === 'string' && withinBounds(payload, bounds))
            return { sub: payload.sub, source: 'hmac' };
        } catch {
          /* fall through: invalid */
        }
      }
      return { invalid: true };
    },
  };
}

/**
 * Verified tokens are remembered for a few seconds (a signature check per request is the
 * gateway's largest CPU cost); expiry is still honoured because the window is short.
 */
const VERIFY_CACHE_MS = 5000;

export function identify(verifier: Verifier): RequestHandler {
  const cache = new Map<string, { at: number; id: EdgeIdentity }>();
  return (req, _res, next) => {
    const token = extractToken(req.headers);
    if (!token) {
      req.edge = {};
      return next();
    }
    const hit = cache.get(token);
    if (hit && Date.now() - hit.at < VERIFY_CACHE_MS) {
      req.edge = hit.id;
      return next();
    }
    verifier.any(token).then((id) => {
      if (cache.size > 10_000) cache.clear();
      if (id.sub) cache.set(token, { at: Date.now(), id });
      req.edge = id;
      next();
    }, next);
  };
}
