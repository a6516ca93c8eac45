/**
 * Admin writes go through the same path as users' activities: an Activity row (the audit log,
 * actor = the admin) carrying the events, then the events published (the relay republishes them
 * if the publish does not complete). Notifications, federation and caches react to the events
 * exactly as they do for a user's write.
 */
import type { AdminContext } from '../context';
import type { AuthUser } from '@agora/common/http';
import { publishEvents, type DomainEvent } from '@agora/common/messaging';
import { mintId } from '@agora/common/db';

export interface AdminWrite {
  type: 'Create' | 'Update' | 'Delete' | 'Undo';
  objectType: string;
  objectId: string;
  to?: string | undefined;
  object?: Record<string, unknown> | null;
  events: DomainEvent[];
}

export async function recordAdminWrite(ctx: AdminContext, admin: AuthUser, w: AdminWrite): Promise<void> {
  const id = mintId('activity', ctx.config.DOMAIN);
  await ctx.stores.activities.record(
    {
      id,
      type: w.type,
      actorId: admin.id,
      objectType: w.objectType,
      objectId: w.objectId,
      target: w.type === 'Create' ? undefined : w.objectId,
      to: w.to,
      object: w.object ?? undefined,
      server: `@${ctx.config.DOMAIN}`,
    },
    w.events,
  );
  await publishEvents(ctx, id, w.events);
}
