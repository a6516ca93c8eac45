/**
 * Events recorded on an activity before it is acknowledged (the activities store writes them to
 * the `event_outbox` row first), published after, and republished by the outbox relay
 * (outbox-relay.ts) when the publish did not complete (crash, broker away): nothing accepted is
 * lost between the write and the publish. Every writer of activities uses it: POST /outbox and
 * registration (social), admin writes, accepted inbound activities (federation).
 */
import type { Stores } from '../db';
import type { Logger } from '../logger';
import type { MessageBus } from './types';
import { versionHeaders } from './events';

/** What publishing and relaying need: the raw bus, the activities store, a logger (a service context). */
export interface EventPublisher {
  bus: MessageBus;
  stores: Pick<Stores, 'activities'>;
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
 * Publishes an activity's events (message ids `<activityId>#<n>`, so a republished event is the
 * same message to an idempotent consumer) and clears its outbox row. Throws when the broker
 * did not confirm them all; the row then stays for the relay.
 */
export async function publishRecorded(
  rt: EventPublisher,
  activityId: string,
  events: readonly RecordedEvent[],
  opts: { ifConnected?: boolean } = {},
): Promise<void> {
  for (const [i, e] of events.entries())
    await rt.bus.publish(e.name, e.payload, {
      id: `${activityId}#${i}`,
      headers: versionHeaders(e.name),
      ...(opts.ifConnected ? { ifConnected: true } : {}),
    });
  await rt.stores.activities.markPublished(activityId);
}

/**
 * After the write is acknowledged to the store: publishes the activity's events, and on failure
 * only logs, since the row is recorded and the relay republishes it. It never waits for a broker
 * that is away (`ifConnected`): the request is answered and the relay sends the events once the
 * broker is back (test/cluster: RabbitMQ restarted under load).
 */
export async function publishEvents(
  rt: EventPublisher,
  activityId: string,
  events: readonly RecordedEvent[],
): Promise<void> {
  if (!events.length) return;
  try {
    await publishRecorded(rt, activityId, events, { ifConnected: true });
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message, activityId }, 'event publish failed; the relay will retry');
  }
}
