/**
 * Keeps the denormalised author copies (`actor.name`, `actor.icon` on content, member entries
 * in circles) in step when a user changes their name or icon. Consumes `user.updated`; the
 * update is idempotent (it sets values), so a redelivered event does no harm.
 */
import { decodeEvent, type BusMessage } from '@agora/common/messaging';
import type { SocialContext } from '../context';

export const USER_COPIES_QUEUE = 'social.user-copies';
const CONSUMED = ['user.updated'] as const;

export async function refreshUserCopies(ctx: SocialContext, raw: BusMessage): Promise<void> {
  const { userId, name, icon } = decodeEvent(raw, CONSUMED).payload;
  await refreshCopiesOf(ctx, userId, name, icon);
}

/** Sets an actor's name and icon on every copy of them (a local user, or another server's actor). */
export async function refreshCopiesOf(
  ctx: SocialContext,
  userId: string,
  name: string | null | undefined,
  icon: string | null | undefined,
): Promise<void> {
  const set: Record<string, string> = {};
  if (typeof name === 'string') set['actor.name'] = name;
  if (typeof icon === 'string') set['actor.icon'] = icon;
  if (!Object.keys(set).length) return;
  const r = ctx.stores;
  await Promise.all(
    [r.posts, r.replies, r.reacts, r.groups, r.pages, r.bookmarks].map((store) =>
      store.refreshActorCopy(userId, set),
    ),
  );
  await r.circles.refreshMemberCopies(userId, {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof icon === 'string' ? { icon } : {}),
  });
}

export async function startUserCopies(ctx: SocialContext): Promise<void> {
  await ctx.events.subscribe(USER_COPIES_QUEUE, CONSUMED, (msg) => refreshUserCopies(ctx, msg));
}
