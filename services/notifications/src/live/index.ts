/**
 * Live updates (ADR 0020): every notifications replica consumes the events of a queue of its own
 * (exclusive: gone with the process), so each sees every event and tells the streams it holds.
 */
import { randomUUID } from 'node:crypto';
import type { NotificationsContext } from '../context';
import { onNotification, onPost, onReply } from './hints';

export { LiveHub, RECONNECT_MS, type LiveEvent } from './hub';

const LIVE_EVENTS = ['post.created', 'reply.created', 'notification.created'] as const;

/** Subscribes this process's queue; the returned function ends every stream. */
export async function startLive(ctx: NotificationsContext): Promise<() => Promise<void>> {
  const hub = ctx.live;
  const queue = `notifications.live.${randomUUID()}`;
  await ctx.events.subscribe(
    queue,
    LIVE_EVENTS,
    async (msg) => {
      // Nobody listens here: nothing to work out.
      if (!hub.users().length) return;
      switch (msg.name) {
        case 'post.created':
          return onPost(ctx, hub, msg.payload);
        case 'reply.created':
          return onReply(ctx, hub, msg.payload);
        case 'notification.created':
          return Promise.resolve(onNotification(hub, msg.payload));
      }
    },
    // One at a time: a stream's hints arrive in the order of the events.
    { exclusive: true, prefetch: 1 },
  );
  return () => {
    hub.close();
    return Promise.resolve();
  };
}
