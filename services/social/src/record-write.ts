/**
 * A write made outside POST /outbox's pipeline (registration, a file's new description) recorded
 * as the pipeline records one: an activity in the log with its events in the event outbox before
 * the answer, the events published after (the outbox relay republishes what a crash left).
 */
import { mintId, type ActivityRecord } from '@agora/common/db';
import { publishEvents, type DomainEvent } from '@agora/common/messaging';
import type { SocialContext } from './context';

export interface RecordedWrite {
  type: string;
  objectType: string;
  actorId: string;
  objectId: string;
  target?: string;
  to?: string;
}

export async function recordWrite(
  ctx: SocialContext,
  write: RecordedWrite,
  events: DomainEvent[],
): Promise<ActivityRecord> {
  const id = mintId('activity', ctx.config.DOMAIN);
  const activity = await ctx.stores.activities.record(
    { id, ...write, server: `@${ctx.config.DOMAIN}` },
    events,
  );
  // Null only for an id recorded before: never for a freshly minted one.
  if (!activity) throw new Error(`activity ${id} was recorded twice`);
  await publishEvents(ctx, id, events);
  return activity;
}
