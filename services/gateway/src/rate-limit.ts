/**
 * Rate limits of spec 1.6 with decisions.md §1: strict (20 / 5 min: /auth/* except /auth/me and
 * /auth/verify-email, and registration by /register or by POST /outbox Create User), inbox (100 /
 * 15 min: POST /inbox), outbox (200 / 15 min: POST /outbox), remote-lookup (30 / 15 min: anonymous
 * reads with a `mode` or a `domain` that may fetch from another server), preview (30 / 5 min per user: GET
 * /preview makes this server fetch a URL its caller chose). Per-account login throttling is
 * login-throttle.ts. Each limiter has its own counter and key prefix, keyed by client IP (TRUST_PROXY
 * decides how many X-Forwarded-For hops are believed) unless it names another key. A HEAD runs
 * the GET route, so it counts as a GET. Redis-shared when configured; when Redis
 * is unreachable each limiter falls back to a per-process memory limiter (fail open to a local
 * limit, never closed and never unlimited).
 */
import type { Request, RequestHandler, Response } from 'express';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { rateLimitMetrics } from '@agora/common/metrics';
import { isOutboxPost, jsonOf } from './body-limit';
import { isCreateUser } from './guards';

export interface LimiterSpec {
  name: 'strict' | 'inbox' | 'outbox' | 'remote-lookup' | 'preview';
  points: number;
  durationSec: number;
  /** Sees the canonical path (canonical.ts runs first) and the buffered body. */
  applies(req: Request): boolean;
  /** Whose count a request uses; the client IP when not given. */
  key?(req: Request): string;
}

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Express answers a HEAD with the GET route: a limit on a GET must count HEADs too. */
const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD';

/** Registration is one mechanism whichever route carries it: /register or POST /outbox Create User. */
const isRegistration = (req: Request) =>
  /^\/register(\/|$)/.test(req.path) || (isOutboxPost(req.method, req.path) && isCreateUser(jsonOf(req)));

/**
 * Anonymous reads that may make this server fetch from another one: spec 1.8 lookup modes, and
 * `domain` (a page of another server, spec 4.3, which also reads that server's NodeInfo).
 */
const isAnonymousRemoteLookup = (req: Request) =>
  isRead(req) &&
  !req.edge?.sub &&
  ((req.query.mode !== undefined && req.query.mode !== 'local') || req.query.domain !== undefined);

/** First match wins: a Create User on /outbox is counted as a registration, not as an outbox post. */
export const LIMITERS: LimiterSpec[] = [
  {
    name: 'strict',
    points: 20,
    durationSec: 300,
    applies: (req) =>
      isRegistration(req) ||
      (/^\/auth(\/|$)/.test(req.path) && !/^\/auth\/(me|verify-email)$/.test(req.path)),
  },
  {
    name: 'inbox',
    points: 100,
    durationSec: 900,
    applies: (req) => req.method === 'POST' && req.path === '/inbox',
  },
  { name: 'outbox', points: 200, durationSec: 900, applies: (req) => isOutboxPost(req.method, req.path) },
  { name: 'remote-lookup', points: 30, durationSec: 900, applies: isAnonymousRemoteLookup },
  {
    // Per user, so changing addresses does not buy more fetches; an anonymous caller (refused by
    // the service) is counted by address.
    name: 'preview',
    points: 30,
    durationSec: 300,
    applies: (req) => isRead(req) && req.path === '/preview',
    key: (req) => (req.edge?.sub ? `user:${req.edge.sub}` : `ip:${clientIp(req)}`),
  },
];

export function buildLimiter(
  spec: { name: string; points: number; durationSec: number },
  redis: RedisClientType | undefined,
  prefix: string,
): RateLimiterAbstract {
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
  const refused = rateLimitMetrics(LIMITERS.map((l) => l.name));
  const limiters = LIMITERS.map((spec) => ({
    spec,
    limiter: buildLimiter(spec, opts.redis, opts.prefix ?? ''),
  }));
  return (req, res, next) => {
    const hit = limiters.find(({ spec }) => spec.applies(req));
    if (!hit) return next();
    const key = hit.spec.key ? hit.spec.key(req) : clientIp(req);
    hit.limiter.consume(key).then(
      (r) => {
        setHeaders(res, hit.spec, r);
        next();
      },
      (r: unknown) => {
        if (!(r instanceof RateLimiterRes)) return next(r);
        setHeaders(res, hit.spec, r);
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(r.msBeforeNext / 1000))));
        refused(hit.spec.name);
        res.status(429).json({ error: 'Too many requests' });
      },
    );
  };
}
