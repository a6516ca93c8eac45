/**
 * What follows one send (decisions.md §6), for a job from the queue and a held one alike.
 * Delivered: done (a held row goes). Permanent (4xx except 408/429, a refused address): dead at
 * once. Transient: held in the database with exponential backoff and jitter (never sooner than the
 * receiver's Retry-After, never less than a second), until DELIVERY_MAX_ATTEMPTS sends, then dead.
 * Dead deliveries stay in `parked_deliveries` with the reason (the admin's servers list counts
 * them). A permanent answer still shows the server is up.
 */
import {
  DELIVERY_MAX_ATTEMPTS,
  nextDelay,
  type DeliveryAttemptResult,
  type DeliveryOutcome,
} from '@agora/common/federation';
import { deliveryMetrics } from '@agora/common/metrics';
import type { FederationContext } from '../context';
import type { DeliveryJob } from './job';

const MIN_RETRY_MS = 1_000;

/** A job's place in the order of its domain, and its sends so far. */
export interface Place {
  key: string;
  objectKey: string;
  /** When the write the job tells of happened (ISO): its place in the domain's order. */
  plannedAt: string;
  /** Sends made, this one included. */
  attempts: number;
  /** Whether a held row exists for it (a job from the queue has none unless it was held before). */
  parked: boolean;
}

export type Settled = 'delivered' | 'dead' | 'retry';

const counted = deliveryMetrics();

export async function settle(
  ctx: FederationContext,
  job: DeliveryJob,
  sent: { status: DeliveryAttemptResult; verdict: DeliveryOutcome },
  place: Place,
): Promise<Settled> {
  const settled = await decide(ctx, job, sent, place);
  counted(settled);
  return settled;
}

async function decide(
  ctx: FederationContext,
  job: DeliveryJob,
  sent: { status: DeliveryAttemptResult; verdict: DeliveryOutcome },
  place: Place,
): Promise<Settled> {
  const held = ctx.stores.parkedDeliveries;
  const { verdict } = sent;
  const log = { inbox: job.inbox, activity: job.activity.id, attempt: place.attempts, status: sent.status };
  const row = { ...place, domain: job.domain, job };
  if (verdict.outcome === 'delivered') {
    await ctx.peers.answered(job.domain, 'delivery');
    if (place.parked) await held.remove(place.key);
    ctx.logger.info(log, 'delivered');
    return 'delivered';
  }
  if (verdict.outcome === 'permanent') {
    // The receiver answered: it is up, so this does not count against its domain.
    await ctx.peers.answered(job.domain, 'delivery');
    await held.bury({ ...row, reason: `refused for good: ${verdict.reason}` });
    ctx.logger.warn({ ...log, reason: verdict.reason }, 'delivery refused for good');
    return 'dead';
  }
  await ctx.peers.failed(job.domain);
  if (place.attempts >= DELIVERY_MAX_ATTEMPTS) {
    await held.bury({ ...row, reason: `gave up after ${place.attempts} attempts: ${verdict.reason}` });
    ctx.logger.warn({ ...log, reason: verdict.reason }, 'delivery given up');
    return 'dead';
  }
  // The scale (tests) shortens the backoff, never the receiver's own Retry-After.
  const delay = Math.max(
    MIN_RETRY_MS,
    nextDelay(place.attempts) * ctx.config.FEDERATION_DELIVERY_DELAY_SCALE,
    verdict.retryAfterMs ?? 0,
  );
  const notBefore = new Date(Date.now() + delay);
  await held.hold({ ...row, notBefore, lastError: verdict.reason });
  ctx.peers.wake(job.domain, notBefore.getTime());
  ctx.logger.warn({ ...log, retryInMs: delay, reason: verdict.reason }, 'delivery failed; held for a retry');
  return 'retry';
}
