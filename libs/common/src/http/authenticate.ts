/**
 * Who is calling: token from the six headers (spec 5.2), verified RS256 then HMAC (spec 5.1),
 * then the user loaded from the database. A deleted or deactivated user's token is refused.
 * Without a token, a bodiless request (GET, HEAD) carrying an HTTP signature is another server
 * reading as a remote viewer; a signature that does not verify is refused with 401 rather than
 * read as anonymous. Signed requests with a body (POST /inbox) are verified by their route,
 * which holds the raw bytes the digest covers.
 */
import type { RequestHandler } from 'express';
import { extractToken } from '../auth/extract';
import type { TokenService } from '../auth/tokens';
import type { Stores } from '../db';
import { stripSecrets } from '../db/repositories/user-secrets';
import type { AuthUser } from './context';
import type { Federation } from '../federation';

const BODILESS = new Set(['GET', 'HEAD']);

/** The stores that authentication reads: who the user is and which role circles they are in. */
export type AuthStores = Pick<Stores, 'users' | 'settings' | 'circles'>;

export interface RoleChecker {
  isAdmin(userId: string): Promise<boolean>;
  isModerator(userId: string): Promise<boolean>;
}

export function roleChecker(repos: AuthStores): RoleChecker {
  const check = async (setting: 'adminCircle' | 'modCircle', userId: string) => {
    const circleId = await repos.settings.get<string>(setting);
    return typeof circleId === 'string' && circleId ? repos.circles.isMember(circleId, userId) : false;
  };
  return { isAdmin: (id) => check('adminCircle', id), isModerator: (id) => check('modCircle', id) };
}

export async function loadAuthUser(
  repos: AuthStores,
  roles: RoleChecker,
  userId: string,
): Promise<AuthUser | undefined> {
  const rec = await repos.users.findActiveById(userId);
  if (!rec) return undefined;
  const [isServerAdmin, isModerator] = await Promise.all([roles.isAdmin(rec.id), roles.isModerator(rec.id)]);
  return {
    id: rec.id,
    username: rec.username,
    isServerAdmin,
    isModerator: isModerator || isServerAdmin,
    record: stripSecrets(rec as unknown as Record<string, unknown>),
  };
}

/**
 * A short per-process cache of verified users (decisions.md §3 allows it): without it every
 * authenticated request costs three database reads. A deleted or demoted user loses access
 * within AUTH_CACHE_MS.
 */
export const AUTH_CACHE_MS = 2000;

export function authenticate(
  tokens: TokenService,
  repos: Stores,
  federation?: Pick<Federation, 'verify'>,
): RequestHandler {
  const roles = roleChecker(repos);
  const cache = new Map<string, { at: number; user: AuthUser | undefined }>();
  const load = async (id: string) => {
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < AUTH_CACHE_MS) return hit.user;
    const user = await loadAuthUser(repos, roles, id);
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { at: Date.now(), user });
    return user;
  };
  return (req, _res, next) => {
    const token = extractToken(req.headers);
    req.auth = {};
    if (!token) {
      if (!federation || !req.headers.signature || !BODILESS.has(req.method)) return next();
      federation
        .verify({ method: req.method, path: req.originalUrl, headers: req.headers })
        .then((v) => {
          req.auth = { remote: { keyId: v.keyId, signerDomain: v.signerDomain } };
        })
        .then(() => next(), next);
      return;
    }
    tokens
      .verify(token)
      .then(async (v) => {
        if (!v) {
          req.auth = { invalidToken: true };
          return;
        }
        const user = await load(v.sub);
        req.auth = user ? { user, tokenSource: v.source } : { invalidToken: true };
      })
      .then(() => next(), next);
  };
}
