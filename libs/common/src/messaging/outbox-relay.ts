/**
 * The outbox relay: republishes the events of activities whose publish did not complete (the
 * writer crashed, or the broker was away), so an accepted write never loses its events. Every
 * service that writes outbox rows runs one (`createService({ outbox: true })`: social, admin,
 * federation; standalone runs one for the process), so no service's events wait on another
 * service being up.
 *
 * Several relays (replicas, or services sharing a database) may read the same rows: each row is
 * claimed by a compare-and-set before it is published (`ActivitiesStore.claim`), so one relay
 * publishes it per grace period. A relay that dies after its claim leaves the row due again a
 * grace period later. A publish that reached the broker before its writer or a relay could
 * delete the row is sent again; consumers are idempotent by message id (`<activityId>#<n>`).
 */
import { publishRecorded, type EventPublisher } from './outbox';
import { outboxMetrics } from '../metrics/outbox';

export interface RelayOptions {
  /** How often the relay looks for due rows. */
  intervalMs: number;
  /** How long a row is left to its writer (or to the relay that claimed it) before it is due. */
  graceMs: number;
  /** Rows read per pass. */
  batch?: number;
}

/**
 * One pass: claims each due row and republishes its events. Stops at the first publish that
 * fails (the broker is away: the rest would wait out the same timeout); that row is due again
 * after the grace. Returns how many rows it published.
 */
export async function relayOnce(
  rt: EventPublisher,
  opts: Pick<RelayOptions, 'graceMs' | 'batch'>,
): Promise<number> {
  const due = await rt.stores.activities.due(new Date(Date.now() - opts.graceMs), opts.batch ?? 100);
  const metrics = outboxMetrics();
  metrics.waiting(due.length, due[0]?.due);
  let published = 0;
  for (const row of due) {
    if (!(await rt.stores.activities.claim(row))) continue;
    try {
      await publishRecorded(rt, row.activityId, row.events);
    } catch (err) {
      rt.logger.warn({ err: (err as Error).message, activityId: row.activityId }, 'relay publish failed');
      break;
    }
    published += 1;
  }
  metrics.republished(published);
  if (published) rt.logger.info({ published }, 'outbox relay republished events');
  return published;
}

/** Runs `relayOnce` every `intervalMs` (never two passes at once); returns its stopper. */
export function startOutboxRelay(rt: EventPublisher, opts: RelayOptions): () => Promise<void> {
  outboxMetrics().waiting(0, undefined);
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = relayOnce(rt, opts)
      .catch((err: Error) => rt.logger.warn({ err: err.message }, 'relay pass failed'))
      .finally(() => {
        running = undefined;
      });
  }, opts.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
