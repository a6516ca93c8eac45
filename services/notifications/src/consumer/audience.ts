/** Audience checks for recipients: a notification must not reveal what its recipient cannot read. */
import { buildViewer, canSee, type Addressed } from '@agora/common/audience';
import { parseId } from '@agora/common/db';
import type { NotificationsContext } from '../context';

/** A user of this server (`@name@<DOMAIN>`). */
export function isLocalUser(id: string, domain: string): boolean {
  const p = parseId(id);
  return p.type === 'User' && p.domain === domain.toLowerCase();
}

/** Whether the local user `userId` may read an object addressed as `addressed`. */
export async function mayRead(
  ctx: NotificationsContext,
  addressed: Addressed,
  userId: string,
): Promise<boolean> {
  const domain = ctx.config.DOMAIN;
  // Public and server-wide objects need no membership lookup: every local user reads them.
  const bare = { id: userId, local: true, isAdmin: false, circleIds: [], groupIds: [] };
  if (canSee(addressed, bare, domain)) return true;
  return canSee(addressed, await buildViewer(ctx.stores.circles, domain, { id: userId }), domain);
}
