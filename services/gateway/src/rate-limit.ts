/**
 * Rate limits of spec 1.6 with decisions.md §1: strict (20 / 5 min: /auth/* except /auth/me and
 * /auth/verify-email, and /register), inbox (100 / 15 min: POST /inbox), outbox (200 / 15 min:
 * POST /outbox). Each limiter has its own counter and key prefix, keyed by client IP (TRUST_PROXY
 * decides how many X-Forwarded-For hops are believed). Redis-shared when configured; when Redis
 * is unreachable each limiter falls back to a per-process memory limiter (fail open to a local
 * limit, never closed and never unlimited).
 */
import type { RequestHandler, Response } from 'express';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';

export interface LimiterSpec {
  name: 'strict' | 'inbox' | 'outbox';
  points: number;
  durationSec: number;
  applies(method: string, path: string): boolean;
}

export const LIMITERS: LimiterSpec[] = [
  {
    name: 'strict',
    points: 20,
    durationSec: 300,
    applies: (_m, p) =>
      /^\/register(\/|$)/.test(p) || (/^\/auth(\/|$)/.test(p) && !/^\/auth\/(me|verify-email)\/?$/.test(p)),
  },
  { name: 'inbox', points: 100, durationSec: 900, applies: (m, p) => m === 'POST' && /^\/inbox\/?$/.test(p) },
  {
    name: 'outbox',
    points: 200,
    durationSec: 900,
    applies: (m, p) => m === 'POST' && /^\/outbox\/?$/.test(p),
  },
];

function build(spec: LimiterSpec, redis: RedisClientType | undefined, prefix: string): RateLimiterAbstract {
  const base = { keyPrefix: `${prefix}rl:${spec.name}`, points: spec.points, duration: spec.durationSec };
  const memory = new RateLimiterMemory(base);
  if (!redis) return memory;
  return new RateLimiterRedis({
    ...base,
    storeClient: redis,
    useRedisPackage: true,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

function setHeaders(res: Response, spec: LimiterSpec, r: RateLimiterRes): void {
  res.setHeader('X-RateLimit-Limit', String(spec.points));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, r.remainingPoints)));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + r.msBeforeNext) / 1000)));
}

export function rateLimits(opts: {
  enabled: boolean;
  redis?: RedisClientType | undefined;
  prefix?: string;
}): RequestHandler {
  if (!opts.enabled) return (_req, _res, next) => next();
  const limiters = LIMITERS.map((spec) => ({ spec, limiter: build(spec, opts.redis, opts.prefix ?? '') }));
  return (req, res, next) => {
    const hit = limiters.find(({ spec }) => spec.applies(req.method, req.path));
    if (!hit) return next();
    const key = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    hit.limiter.consume(key).then(
      (r) => {
        setHeaders(res, hit.spec, r);
        next();
      },
      (r: unknown) => {
        if (!(r instanceof RateLimiterRes)) return next(r);
        setHeaders(res, hit.spec, r);
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(r.msBeforeNext / 1000))));
        res.status(429).json({ error: 'Too many requests' });
      },
    );
  };
}
