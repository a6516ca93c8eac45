/**
 * Admin writes that change what users see are recorded like every other write (the activity
 * pipeline's shape): an activity in the audit log with its events in the outbox, the events
 * published after (the relay republishes what a crash left), and the admin's own viewer stamp
 * moved. The stores have already moved the stamps their writes imply.
 */
import { STAMPS } from '@agora/common/cache';
import { mintId } from '@agora/common/db';
import {
  activityEventName,
  domainEvent,
  publishEvents,
  type ActivityType,
  type DomainEvent,
} from '@agora/common/messaging';
import type { AdminContext } from './context';

export interface AdminWrite {
  type: ActivityType;
  objectType: string;
  objectId: string;
  object?: Record<string, unknown>;
}

export async function recordAdminWrite(
  ctx: AdminContext,
  adminId: string,
  write: AdminWrite,
  events: DomainEvent[],
): Promise<void> {
  const id = mintId('activity', ctx.config.DOMAIN);
  const all: DomainEvent[] = [
    domainEvent(activityEventName(write.type), {
      activityId: id,
      actorId: adminId,
      objectId: write.objectId,
    }),
    ...events,
  ];
  await ctx.stamps.bump([STAMPS.viewer(adminId)]);
  await ctx.stores.activities.record(
    {
      id,
      type: write.type,
      actorId: adminId,
      objectType: write.objectType,
      objectId: write.objectId,
      target: write.objectId,
      ...(write.object ? { object: write.object } : {}),
      server: `@${ctx.config.DOMAIN}`,
    },
    all,
  );
  await publishEvents(ctx, id, all);
}
