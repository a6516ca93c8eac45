import { NotFound } from '@agora/common/errors';
import { Router, handler } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { assertUsable, emailHint, findLiveInvite, limitOf } from '../../invites/validity';

/**
 * GET /invites/:code (behaviour-notes §3.1): lets the registration page show an invite before
 * the account exists. There is deliberately no POST /invites/:code/redeem: unauthenticated, it
 * let anyone burn invites (§11); registration redeems instead.
 */
export default function inviteRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/:code',
    handler(
      async ({ params, set }) => {
        const invite = await findLiveInvite(ctx, params.code);
        if (!invite) throw new NotFound('Invite not found');
        assertUsable(invite);
        const limit = limitOf(invite);
        set('valid', true);
        set('invite', {
          type: invite.type,
          welcomeMessage: invite.welcomeMessage ?? null,
          expiresAt: invite.expiresAt ?? null,
          emailHint: invite.type === 'individual' ? emailHint(invite.email) : null,
          remainingRedemptions: limit === null ? null : Math.max(0, limit - (invite.redemptionCount ?? 0)),
        });
      },
      { allowUnauth: true },
    ),
  );
  return r;
}
