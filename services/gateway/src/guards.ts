/**
 * Edge authorisation that does not need the database: the admin guard's token check (spec
 * 5.3.4: Authorization header, RS256 only → 401 here; admin membership is checked by the admin
 * service → 403) and registration-only anonymous POST /outbox (spec 5.4).
 */
import type { RequestHandler } from 'express';
import { extractAuthorizationToken } from '@agora/common/auth';
import { isOutboxPost, jsonOf } from './body-limit';
import type { Verifier } from './identity';

export function adminEdgeGuard(verifier: Verifier): RequestHandler {
  return (req, res, next) => {
    if (!/^\/admin(\/|$)/.test(req.path)) return next();
    const token = extractAuthorizationToken(req.headers);
    if (!token) return void res.status(401).json({ error: 'Unauthorized' });
    verifier
      .rs256(token)
      .then((sub) => (sub ? next() : void res.status(401).json({ error: 'Unauthorized' })), next);
  };
}

export function isCreateUser(activity: unknown): boolean {
  if (typeof activity !== 'object' || activity === null) return false;
  const a = activity as Record<string, unknown>;
  const obj = a.object as Record<string, unknown> | undefined;
  const kind = (v: unknown) => typeof v === 'string' && /^(User|Person)$/i.test(v);
  return a.type === 'Create' && (kind(a.objectType) || kind(obj?.type));
}

export const outboxAnonymousGuard: RequestHandler = (req, res, next) => {
  if (!isOutboxPost(req.method, req.path) || req.edge?.sub) return next();
  if (isCreateUser(jsonOf(req))) return next();
  res.status(401).json({ error: 'Unauthorized' });
};
