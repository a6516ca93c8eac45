/**
 * The delivery worker (decisions.md §6): signs each attempt afresh with the server key, posts
 * through the safe client (10 s per attempt), and sorts the answer. Delivered: done. Permanent
 * (4xx except 408/429, refused addresses): dead-lettered at once. Transient: retried with
 * exponential backoff and jitter (or the receiver's Retry-After when longer) up to
 * DELIVERY_MAX_ATTEMPTS, then dead-lettered. A per-domain circuit breaker holds jobs for a
 * domain that keeps failing instead of sending them.
 */
import {
  DELIVERY_MAX_ATTEMPTS,
  SafeFetchError,
  classifyDelivery,
  nextDelay,
  signAsServer,
  type DeliveryAttemptResult,
} from '@agora/common/federation';
import { PermanentMessageError, decodeJob, type BusMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import { DELIVER_QUEUE, tierFor, type DeliveryJob } from './job';

const MIN_RETRY_MS = 1_000;

async function send(
  ctx: FederationContext,
  job: DeliveryJob,
): Promise<{ status: DeliveryAttemptResult; headers: Record<string, string | string[] | undefined> }> {
  const body = JSON.stringify(job.activity);
  const signed = await signAsServer(ctx, { method: 'POST', url: job.inbox, body });
  try {
    const res = await ctx.federation.deliver(job.inbox, {
      method: 'POST',
      headers: { ...signed, 'content-type': 'application/activity+json', accept: 'application/json' },
      body,
    });
    return { status: res.status, headers: res.headers };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    // A redirect (none are followed for a POST), a bad URL or a refused address cannot get better.
    const status: DeliveryAttemptResult =
      err.reason === 'timeout'
        ? 'timeout'
        : err.reason === 'network' || err.reason === 'unresolvable' || err.reason === 'too_large'
          ? 'network'
          : 'forbidden_address';
    return { status, headers: {} };
  }
}

export async function deliver(ctx: FederationContext, msg: BusMessage): Promise<void> {
  const job = decodeJob(msg, DELIVER_QUEUE).payload;
  const { breaker } = ctx.federation;
  const gate = await breaker.check(job.domain);
  if (gate.open) {
    await ctx.events.enqueue(DELIVER_QUEUE, job, { delayMs: tierFor(gate.retryInMs) });
    return;
  }
  const { status, headers } = await send(ctx, job);
  const verdict = classifyDelivery(status, headers);
  const log = { inbox: job.inbox, activity: job.activity.id, attempt: job.attempt, status };
  if (verdict.outcome === 'delivered') {
    await breaker.success(job.domain);
    ctx.logger.info(log, 'delivered');
    return;
  }
  if (verdict.outcome === 'permanent') {
    // The receiver answered: it is up, so this does not count against its domain.
    await breaker.success(job.domain);
    throw new PermanentMessageError(`delivery refused for good: ${verdict.reason}`);
  }
  await breaker.failure(job.domain);
  if (job.attempt >= DELIVERY_MAX_ATTEMPTS)
    throw new PermanentMessageError(`gave up after ${job.attempt} attempts: ${verdict.reason}`);
  // At least a second apart, whatever the scale: never a tight loop against a failing receiver.
  // The scale (tests) shortens the backoff, never the receiver's own Retry-After.
  const delay = Math.max(
    MIN_RETRY_MS,
    nextDelay(job.attempt) * ctx.config.FEDERATION_DELIVERY_DELAY_SCALE,
    verdict.retryAfterMs ?? 0,
  );
  ctx.logger.warn({ ...log, retryInMs: delay, reason: verdict.reason }, 'delivery failed; will retry');
  await ctx.events.enqueue(DELIVER_QUEUE, { ...job, attempt: job.attempt + 1 }, { delayMs: tierFor(delay) });
}

export async function startDeliveryWorker(ctx: FederationContext): Promise<void> {
  await ctx.events.work(DELIVER_QUEUE, (msg) => deliver(ctx, msg));
}
