/**
 * The invite side of registration (behaviour-notes §3.2 steps 2-3 and 10): check the code and
 * the e-mail before the account exists, claim a slot atomically, and the `invite.redeemed`
 * event registration records with its activity.
 */
import { BadRequest, Gone, NotAuthorized, NotFound } from '@agora/common/errors';
import { domainEvent, type DomainEvent } from '@agora/common/messaging';
import type { SocialContext } from '../context';
import { assertUsable, findLiveInvite, limitOf, type InviteRow } from './validity';

/** Throws the documented 404/410/400/403; returns the invite the registration may use. */
export async function checkInvite(
  ctx: SocialContext,
  code: string,
  email: string | undefined,
): Promise<InviteRow> {
  const invite = await findLiveInvite(ctx, code);
  if (!invite) throw new NotFound('Invalid invite code');
  assertUsable(invite);
  if (invite.type === 'individual') {
    if (!email) throw new BadRequest('Email is required for this invite');
    if (email.trim().toLowerCase() !== (invite.email ?? '').toLowerCase())
      throw new NotAuthorized('This invite is for a different email address');
  }
  return invite;
}

/**
 * Takes one redemption slot (InvitesStore.claim: a write conditional on the count still being
 * under the limit, so two concurrent registrations cannot both take the last slot). Throws 410
 * when the slot went to someone else meanwhile.
 */
export async function claimInvite(
  ctx: SocialContext,
  invite: InviteRow,
  userId: string,
  email: string | undefined,
): Promise<void> {
  const limit = limitOf(invite);
  const claimed = await ctx.stores.invites.claim(invite, limit, { userId, email: email ?? null });
  if (!claimed)
    throw new Gone(
      invite.type === 'individual'
        ? 'Invite has already been used'
        : 'Invite has reached its redemption limit',
      { extra: { valid: false } },
    );
}

/** Gives the slot back when the account could not be created after all (best effort). */
export async function releaseInvite(ctx: SocialContext, invite: InviteRow, userId: string): Promise<void> {
  await ctx.stores.invites
    .release(invite.id, userId)
    .catch((err: unknown) =>
      ctx.logger.warn({ err: (err as Error).message, invite: invite.id, userId }, 'invite release failed'),
    );
}

/** The event of a redeemed invite (recorded on the registration's activity). */
export function redeemedEvent(invite: InviteRow, userId: string): DomainEvent {
  return domainEvent('invite.redeemed', { inviteId: invite.id, userId, inviterId: invite.actorId });
}
