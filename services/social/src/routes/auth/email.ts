/**
 * E-mail verification (behaviour-notes §3.2, fixed: tokens stored as SHA-256, single use).
 * GET /auth/verify-email?token= consumes a token in one atomic update; POST
 * /auth/resend-verification answers the same whatever the address, so it cannot be used to
 * find out who is registered.
 */
import { BadRequest } from '@agora/common/errors';
import { handler, loadAuthUser, type RoleChecker, type Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { sessionUser, tokenClaim } from '../../users/present';
import { VERIFY_TTL_MS, hashToken, isTokenShaped, mintEmailToken } from '../../users/tokens';
import { sendBestEffort, verificationMail } from '../../users/mail';
import { emailField } from './inputs';

const RESEND_MESSAGE =
  'If that address is registered and unverified, a new verification email has been sent.';

export function emailRoutes(r: Router, ctx: SocialContext, roles: RoleChecker): void {
  r.get(
    '/verify-email',
    handler(async ({ query, set }) => {
      const token = query.token;
      if (token === undefined || token === '') throw new BadRequest('Missing verification token');
      if (!isTokenShaped(token)) throw new BadRequest('Invalid or expired verification token');
      const consumed = await ctx.stores.users.consumeVerificationToken(hashToken(token));
      const rec = consumed ? await ctx.stores.users.findActiveById(consumed) : null;
      if (!rec) throw new BadRequest('Invalid or expired verification token');
      const auth = await loadAuthUser(ctx.stores, roles, rec.id);
      set(
        'user',
        sessionUser(rec, {
          isServerAdmin: auth?.isServerAdmin ?? false,
          isModerator: auth?.isModerator ?? false,
        }),
      );
      set('token', await ctx.tokens.issue(rec.id, tokenClaim(rec)));
    }),
  );

  r.post(
    '/resend-verification',
    handler(
      async ({ body, set }) => {
        const email = emailField(body.email);
        if ((await ctx.stores.settings.get<boolean>('requireEmailVerification')) === true) {
          const t = mintEmailToken(VERIFY_TTL_MS);
          // A new token replaces the old one, so only the latest link works.
          const sent = await ctx.stores.users.setVerificationToken(
            email,
            ctx.config.DOMAIN,
            t.hash,
            t.expires,
          );
          if (sent) sendBestEffort(ctx, verificationMail(ctx, email, t.token), 'verification');
        }
        set('message', RESEND_MESSAGE);
      },
      { allowUnauth: true },
    ),
  );
}
