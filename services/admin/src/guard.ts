/**
 * The admin guard of spec 5.3.4: `Authorization: Bearer|Token <jwt>` only, RS256 only, issuer
 * https://<domain>, and the user must be a server admin. Missing or invalid → 401; a valid
 * token of a non-admin → 403.
 */
import type { RequestHandler } from 'express';
import { extractAuthorizationToken } from '@agora/common/auth';
import { NotAuthorized, Unauthorized } from '@agora/common/errors';
import { loadAuthUser, roleChecker } from '@agora/common/http';
import type { AdminContext } from './context';

export function adminGuard(ctx: AdminContext): RequestHandler {
  const roles = roleChecker(ctx.stores);
  return (req, _res, next) => {
    const token = extractAuthorizationToken(req.headers);
    if (!token) return next(new Unauthorized());
    ctx.tokens
      .verifyRs256(token)
      .then(async (v) => {
        if (!v) throw new Unauthorized();
        const user = await loadAuthUser(ctx.stores, roles, v.sub);
        if (!user) throw new Unauthorized();
        if (!user.isServerAdmin) throw new NotAuthorized('Admin access required');
        req.auth = { user, tokenSource: 'rs256' };
      })
      .then(() => next(), next);
  };
}
