/** The outbox relay's view (messaging/outbox-relay.ts): rows waiting past their grace, and republishes. */
import { family } from './registry';

export interface OutboxMetrics {
  /** After each pass: the rows it found due (at most a batch) and the oldest one's `due`. */
  waiting(rows: number, oldestDue: Date | undefined): void;
  republished(rows: number): void;
}

export function outboxMetrics(): OutboxMetrics {
  const waiting = family('gauge', 'agora_outbox_rows_waiting', {
    help: 'Outbox rows past their grace period at the last relay pass (events not yet published; at most one batch).',
  });
  const oldest = family('gauge', 'agora_outbox_oldest_waiting_seconds', {
    help: 'Age of the longest-waiting outbox row at the last relay pass (0 when none).',
  });
  const republished = family('counter', 'agora_outbox_republished_total', {
    help: 'Outbox rows whose events the relay published (their writer could not).',
  });
  return {
    waiting(rows, oldestDue) {
      waiting.set(rows);
      oldest.set(oldestDue ? Math.max(0, (Date.now() - oldestDue.getTime()) / 1000) : 0);
    },
    republished: (rows) => republished.inc(rows),
  };
}
