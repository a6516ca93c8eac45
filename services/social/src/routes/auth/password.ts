/**
 * Password reset (behaviour-notes §3.2, fixed): the e-mail is matched exactly (lower-cased,
 * never as a pattern), the token is stored as SHA-256 and valid one hour, and it is consumed by
 * the same atomic update that sets the new password, so it works once.
 */
import { hashPassword } from '@agora/common/auth';
import { BadRequest } from '@agora/common/errors';
import { handler, type Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { RESET_TTL_MS, hashToken, isTokenShaped, mintEmailToken } from '../../users/tokens';
import { resetMail, sendBestEffort } from '../../users/mail';
import { tokenClaim } from '../../users/present';
import { emailField, newPassword, stringField } from './inputs';

const FORGOT_MESSAGE = 'If that email is registered, a reset link has been sent.';
const INVALID_RESET = 'Reset token is invalid or has expired';

export function passwordRoutes(r: Router, ctx: SocialContext): void {
  r.post(
    '/forgot-password',
    handler(
      async ({ body, set }) => {
        const email = emailField(body.email);
        const t = mintEmailToken(RESET_TTL_MS);
        const stored = await ctx.stores.users.setResetToken(email, ctx.config.DOMAIN, t.hash, t.expires);
        if (stored) sendBestEffort(ctx, resetMail(ctx, email, t.token), 'password-reset');
        set('ok', true);
        set('message', FORGOT_MESSAGE);
      },
      { allowUnauth: true },
    ),
  );

  r.post(
    '/reset-password',
    handler(
      async ({ body, set }) => {
        if (
          body.token === undefined ||
          body.token === '' ||
          body.password === undefined ||
          body.password === ''
        )
          throw new BadRequest('token and password are required');
        const token = stringField(body.token, 'token');
        const password = newPassword(body.password);
        if (!isTokenShaped(token)) throw new BadRequest(INVALID_RESET);
        const hash = await hashPassword(password);
        const tokenHash = hashToken(token);
        const userId = await ctx.stores.users.resetPassword(tokenHash, hash);
        if (!userId) throw new BadRequest(INVALID_RESET);
        ctx.logger.info({ userId }, 'password reset');
        set('ok', true);
        const rec = await ctx.stores.users.findById(userId);
        set('token', await ctx.tokens.issue(userId, rec ? tokenClaim(rec) : undefined));
      },
      { allowUnauth: true },
    ),
  );
}
