/**
 * Events recorded on an activity before it is acknowledged, published after, and republished by
 * a relay when the publish did not complete (crash, broker away): nothing accepted is lost
 * between the write and the publish. Used for local activities (POST /outbox) and accepted
 * inbound ones (POST /inbox) alike.
 */
import type { PendingEvents, Repositories } from '../db';
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

/**
 * Publishes an activity's events (message ids `<activityId>#<n>`) and clears its outbox row;
 * failures leave the row for the relay. With `after` (the activity's deferred work, such as a
 * post's circle fan-out) the row is cleared once that work is done too, without holding the
 * caller; if the work fails, the row stays and the relay finishes it.
 */
export async function publishEvents(
  rt: EventPublisher,
  activityId: string,
  events: readonly RecordedEvent[],
  opts: { after?: Promise<unknown> } = {},
): Promise<void> {
  // Handled here whatever happens below: its failure is reported when the row is cleared.
  opts.after?.catch(() => undefined);
  try {
    for (const [i, e] of events.entries())
      await rt.bus.publish(e.name, e.payload, { id: `${activityId}#${i}`, headers: versionHeaders(e.name) });
    if (!opts.after) await rt.stores.activities.markPublished(activityId);
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message, activityId }, 'event publish failed; the relay will retry');
    return;
  }
  if (opts.after)
    opts.after
      .then(() => rt.stores.activities.markPublished(activityId))
      .catch((err: Error) =>
        rt.logger.warn(
          { err: err.message, activityId },
          'deferred work or outbox clearing failed; the relay will finish it',
        ),
      );
}

/** Finishes the deferred work an outbox row names (a post's circle fan-out) before it is republished. */
export type RelayRecovery = (row: PendingEvents) => Promise<void>;

/**
 * One pass of the relay: every outbox row older than `graceMs` has its deferred work finished
 * (`recover`), then its events published again and the row cleared. A row whose recovery fails
 * stays for the next pass.
 */
export async function relayOnce(
  rt: EventPublisher,
  opts: { graceMs?: number; recover?: RelayRecovery } = {},
): Promise<void> {
  const stale = await rt.stores.activities.unpublished(new Date(Date.now() - (opts.graceMs ?? 10_000)), 100);
  for (const a of stale) {
    if (a.fanOut.length) {
      if (!opts.recover) continue; // only a relay that can finish the work may clear the row
      try {
        await opts.recover(a);
      } catch (err) {
        rt.logger.warn({ err: (err as Error).message, activityId: a.activityId }, 'relay recovery failed');
        continue;
      }
    }
    await publishEvents(rt, a.activityId, a.events);
  }
}

/** Republishes the events of stored activities left unpublished for longer than `graceMs`. */
export function startRelay(
  rt: EventPublisher,
  opts: { intervalMs?: number; graceMs?: number; recover?: RelayRecovery } = {},
): () => Promise<void> {
  const interval = opts.intervalMs ?? 5000;
  let running: Promise<void> | undefined;
  const tick = () => relayOnce(rt, opts);
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
