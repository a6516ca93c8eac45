/**
 * Per-account login throttling, beside the per-IP strict limit: failed logins are counted per
 * account (the `username` or `id` of POST /auth/login, lower-cased), whichever addresses they come
 * from; after LOGIN_FAILURES within the window every login to that account is 429 until the
 * window ends, the right password included (a guesser spread over many addresses learns nothing
 * more). A successful login clears the count. Same store as the other limiters: Redis shared by
 * every replica, per-process memory in standalone or while Redis is away.
 */
import type { Request, RequestHandler } from 'express';
import type { RedisClientType } from 'redis';
import { jsonOf } from './body-limit';
import { buildLimiter } from './rate-limit';

export const LOGIN_FAILURES = 10;
export const LOGIN_WINDOW_SEC = 900;

/**
 * The account a login names, one key whichever way it is named (`username`, or `id`, which for a
 * local account is `@<username>@<domain>`); undefined when it names none.
 */
export function loginAccount(req: Request, domain: string): string | undefined {
  if (req.method !== 'POST' || req.path !== '/auth/login') return undefined;
  const body = jsonOf(req) as { username?: unknown; id?: unknown } | undefined;
  const raw = typeof body?.id === 'string' && body.id ? body.id : body?.username;
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  const name = raw.trim().toLowerCase().slice(0, 300);
  const local = /^@([^@]+)@(.+)$/.exec(name);
  return local && local[2] === domain.toLowerCase() ? local[1] : name;
}

export function loginThrottle(opts: {
  enabled: boolean;
  domain: string;
  redis?: RedisClientType | undefined;
  prefix?: string;
}): RequestHandler {
  if (!opts.enabled) return (_req, _res, next) => next();
  const limiter = buildLimiter(
    { name: 'login-account', points: LOGIN_FAILURES, durationSec: LOGIN_WINDOW_SEC },
    opts.redis,
    opts.prefix ?? '',
  );
  const refuse = (res: Parameters<RequestHandler>[1], msBeforeNext: number) => {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
    res.status(429).json({ error: 'Too many failed logins for this account; try again later' });
  };
  return (req, res, next) => {
    const account = loginAccount(req, opts.domain);
    if (!account) return next();
    limiter.get(account).then(
      (seen) => {
        if (seen && seen.consumedPoints >= LOGIN_FAILURES) return refuse(res, seen.msBeforeNext);
        res.on('finish', () => {
          // Only a refused password counts; 400s (malformed bodies) and 429s do not.
          if (res.statusCode === 401) void limiter.penalty(account).catch(() => undefined);
          else if (res.statusCode === 200) void limiter.delete(account).catch(() => undefined);
        });
        next();
        // The store is away: the per-IP strict limit still holds; do not refuse every login.
      },
      () => next(),
    );
  };
}
