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
import type { Runtime } from '@agora/common/runtime';

export interface AdminWrite {
  type: ActivityType;
  objectType: string;
  objectId: string;
  object?: Record<string, unknown>;
}

export async function recordAdminWrite(
  rt: Runtime,
  adminId: string,
  write: AdminWrite,
  events: DomainEvent[],
): Promise<void> {
  const id = mintId('activity', rt.config.DOMAIN);
  const all: DomainEvent[] = [
    domainEvent(activityEventName(write.type), {
      activityId: id,
      actorId: adminId,
      objectId: write.objectId,
    }),
    ...events,
  ];
  await rt.stamps.bump([STAMPS.viewer(adminId)]);
  await rt.repos.activities.record(
    {
      id,
      type: write.type,
      actorId: adminId,
      objectType: write.objectType,
      objectId: write.objectId,
      target: write.objectId,
      ...(write.object ? { object: write.object } : {}),
      server: `@${rt.config.DOMAIN}`,
    },
    all,
  );
  await publishEvents(rt, id, all);
}
