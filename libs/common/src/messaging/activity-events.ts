/**
 * Events recorded on an activity before it is acknowledged, published after, and republished by
 * a relay when the publish did not complete (crash, broker away): nothing accepted is lost
 * between the write and the publish. Used for local activities (POST /outbox) and accepted
 * inbound ones (POST /inbox) alike.
 */
import type { Repositories } from '../db';
import type { Logger } from '../logger';
import type { MessageBus } from './types';
import { versionHeaders } from './events';

/** What publishing and relaying need: the raw bus, the activities store, a logger (a service context). */
export interface EventPublisher {
  bus: MessageBus;
  stores: Pick<Repositories, 'activities'>;
  logger: Logger;
}

/**
 * An outbox record as stored. Producers build them with `domainEvent` (checked against the
 * catalogue); the relay republishes what the store holds as it is, with the catalogue version of
 * its name, and leaves judging it to the consumers (a record that no longer parses is
 * dead-lettered there, visible, instead of blocking the outbox).
 */
export interface RecordedEvent {
  name: string;
  payload: unknown;
}

/** Publishes an activity's events (message ids `<activityId>#<n>`) and marks it; failures leave it for the relay. */
export async function publishEvents(
  rt: EventPublisher,
  activityId: string,
  events: readonly RecordedEvent[],
): Promise<void> {
  try {
    for (const [i, e] of events.entries())
      await rt.bus.publish(e.name, e.payload, { id: `${activityId}#${i}`, headers: versionHeaders(e.name) });
    await rt.stores.activities.markPublished(activityId);
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message, activityId }, 'event publish failed; the relay will retry');
  }
}

/** Republishes the events of stored activities left unpublished for longer than `graceMs`. */
export function startRelay(
  rt: EventPublisher,
  opts: { intervalMs?: number; graceMs?: number } = {},
): () => Promise<void> {
  const interval = opts.intervalMs ?? 5000;
  const grace = opts.graceMs ?? 10_000;
  let running: Promise<void> | undefined;
  const tick = async () => {
    const stale = await rt.stores.activities.unpublished(new Date(Date.now() - grace), 100);
    for (const a of stale) await publishEvents(rt, a.activityId, a.events);
  };
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((err: Error) => rt.logger.warn({ err: err.message }, 'relay tick failed'))
      .finally(() => {
        running = undefined;
      });
  }, interval);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
