/**
 * Whether a user blocked or muted someone (membership of their Blocked and Muted circles: `_id`
 * reads). Nothing of a silenced actor reaches the user: no notification, no live hint.
 */
import type { NotificationsContext } from '../context';

export interface SilencingUser {
  circles?: { blocked?: string | null; muted?: string | null } | null;
}

export async function silenced(
  ctx: NotificationsContext,
  user: SilencingUser,
  actorId: string,
): Promise<boolean> {
  const ids = [user.circles?.blocked, user.circles?.muted].filter(
    (c): c is string => typeof c === 'string' && c !== '',
  );
  for (const id of ids) if (await ctx.stores.circles.isMember(id, actorId)) return true;
  return false;
}

/** `silenced` for a user known by id (an unknown user silences nobody). */
export async function silencedBy(
  ctx: NotificationsContext,
  userId: string,
  actorId: string,
): Promise<boolean> {
  const user = await ctx.stores.users.findById(userId);
  return user ? silenced(ctx, user, actorId) : false;
}
