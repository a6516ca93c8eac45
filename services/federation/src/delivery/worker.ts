/**
 * The delivery worker (decisions.md §6): the first send of each job from the durable queue
 * `federation.deliver`. A job for a blocked domain is dropped (recorded dead). A job is held in
 * the database instead of sent when its server's circuit is open, or when an earlier activity
 * about the same object is still held for that server (so an Update never overtakes its Create);
 * the drainer (drain.ts) sends it when its turn comes. What follows a send: settle.ts.
 */
import { decodeJob, type BusMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import { attemptDelivery } from './attempt';
import { DELIVER_QUEUE, jobKey, objectKeyOf } from './job';
import { settle, type Place } from './settle';

export async function deliver(ctx: FederationContext, msg: BusMessage): Promise<void> {
  const job = decodeJob(msg, DELIVER_QUEUE).payload;
  const held = ctx.stores.parkedDeliveries;
  const place: Place = {
    key: jobKey(job),
    objectKey: objectKeyOf(job.activity),
    plannedAt: job.writtenAt ?? msg.publishedAt,
    attempts: job.attempt,
    parked: false,
  };
  const row = { ...place, domain: job.domain, job };
  if (await ctx.peers.blocks.isBlocked(job.domain)) {
    await held.bury({ ...row, attempts: job.attempt - 1, reason: 'dropped: the domain is blocked' });
    ctx.logger.info(
      { domain: job.domain, activity: job.activity.id },
      'delivery to a blocked domain dropped',
    );
    return;
  }
  const behind = await held.isHeld(job.domain, place.objectKey);
  const gate = behind ? undefined : await ctx.federation.breaker.check(job.domain);
  if (behind || gate?.open) {
    await held.hold({ ...row, attempts: job.attempt - 1, notBefore: new Date() });
    if (behind) ctx.peers.wake(job.domain);
    return;
  }
  await settle(ctx, job, await attemptDelivery(ctx, job), place);
}

export async function startDeliveryWorker(ctx: FederationContext): Promise<void> {
  await ctx.events.work(DELIVER_QUEUE, (msg) => deliver(ctx, msg));
}
