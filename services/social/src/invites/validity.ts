/**
 * Invite validity (behaviour-notes §2.4), shared by GET /invites/:code and registration.
 * Redemption itself happens only inside registration (no public redeem route: §11).
 */
import { Gone } from '@agora/common/errors';
import type { SocialContext } from '../context';

export interface InviteRow {
  id: string;
  actorId: string;
  type: 'individual' | 'open';
  email?: string | null;
  code: string;
  maxRedemptions?: number | null;
  redemptionCount?: number;
  active: boolean;
  expiresAt?: Date | null;
  welcomeMessage?: string | null;
  deletedAt?: Date | null;
}

// Codes are 16 base64url characters; anything else (objects, operators) is simply unknown.
const CODE_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The live invite with this code, or null when unknown, deactivated or deleted. */
export async function findLiveInvite(ctx: SocialContext, code: unknown): Promise<InviteRow | null> {
  if (typeof code !== 'string' || !CODE_RE.test(code)) return null;
  const invite = (await ctx.stores.invites.byCode(code)) as InviteRow | null;
  if (!invite || !invite.active || invite.deletedAt) return null;
  return invite;
}

/** An individual invite is single-use whatever maxRedemptions says; open ones may be unlimited. */
export function limitOf(invite: InviteRow): number | null {
  return invite.type === 'individual' ? 1 : (invite.maxRedemptions ?? null);
}

/** Why a live invite cannot be used now, or null when it can. */
export function invalidReason(invite: InviteRow, now = new Date()): string | null {
  if (invite.expiresAt && new Date(invite.expiresAt).getTime() <= now.getTime()) return 'Invite has expired';
  const limit = limitOf(invite);
  const used = invite.redemptionCount ?? 0;
  if (limit !== null && used >= limit)
    return invite.type === 'individual'
      ? 'Invite has already been used'
      : 'Invite has reached its redemption limit';
  return null;
}

/** Throws the 410 of §3.1 when the invite cannot be used. */
export function assertUsable(invite: InviteRow): void {
  const reason = invalidReason(invite);
  if (reason) throw new Gone(reason, { extra: { valid: false } });
}

/** `*****@example.org`: enough for the invitee to recognise the address, nothing more. */
export function emailHint(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  return at < 0 ? '*****' : `*****${email.slice(at)}`;
}
