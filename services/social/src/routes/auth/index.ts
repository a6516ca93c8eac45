import { verifyPassword } from '@agora/common/auth';
import { BadRequest, NotAuthorized, NotFound, Unauthorized } from '@agora/common/errors';
import { Router, handler, loadAuthUser, roleChecker } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { sessionUser, tokenClaim } from '../../users/present';
import { emailRoutes } from './email';
import { passwordRoutes } from './password';

const LOGIN_FIELDS = new Set(['username', 'id', 'password']);

/** /auth: login, the current user, e-mail verification and password reset (decisions.md §3). */
export default function authRoutes(ctx: SocialContext): Router {
  const r = Router();
  const roles = roleChecker(ctx.stores);

  r.post(
    '/login',
    handler(
      async ({ body, set }) => {
        const extra = Object.keys(body).filter((k) => !LOGIN_FIELDS.has(k));
        if (extra.length) throw new BadRequest(`Unsupported fields: ${extra.join(', ')}`);
        const { username, id, password } = body;
        if (
          (username !== undefined && typeof username !== 'string') ||
          (id !== undefined && typeof id !== 'string')
        ) {
          throw new BadRequest('username and id must be strings');
        }
        if (!username && !id) throw new BadRequest('username or id is required');
        if (typeof password !== 'string' || !password) throw new BadRequest('password is required');
        const rec = await ctx.stores.users.findForLogin(
          id ? { id } : { username: username! },
          ctx.config.DOMAIN,
        );
        const ok = await verifyPassword(password, rec?.password);
        if (!rec || !ok || rec.active === false || rec.deletedAt)
          throw new Unauthorized('Invalid credentials');
        // Checked only after the password, so it reveals nothing to someone guessing. Users with no
        // address (the bootstrap admin, accounts from before the setting) have nothing to verify.
        if (
          rec.email &&
          rec.emailVerified !== true &&
          (await ctx.stores.settings.get<boolean>('requireEmailVerification')) === true
        ) {
          throw new NotAuthorized('Please verify your email address before logging in.', {
            extra: { unverified: true },
          });
        }
        await ctx.stores.users.markLogin(rec.id);
        const auth = await loadAuthUser(ctx.stores, roles, rec.id);
        set('token', await ctx.tokens.issue(rec.id, tokenClaim(rec)));
        set(
          'user',
          sessionUser(rec, {
            isServerAdmin: auth?.isServerAdmin ?? false,
            isModerator: auth?.isModerator ?? false,
          }),
        );
      },
      { allowUnauth: true },
    ),
  );

  r.get(
    '/me',
    handler(
      async ({ user, set }) => {
        const rec = await ctx.stores.users.findActiveById(user!.id);
        if (!rec) throw new NotFound('User not found');
        set('user', sessionUser(rec, user!));
      },
      { requireAuth: true },
    ),
  );

  emailRoutes(r, ctx, roles);
  passwordRoutes(r, ctx);
  return r;
}
