/**
 * Processes activities accepted by POST /inbox (the federation service records them with an
 * `inbox.accepted` event). Idempotent: an activity whose processing is recorded is skipped, so a
 * redelivered event does nothing; the outcome (processed, ignored or rejected, with the reason)
 * is kept on the activity for the admin log. The events processing produced (a remote reply's
 * `reply.created`, …) are published with message ids `<activity id>#applied#<n>`.
 */
import { decodeEvent, publishEvents, type BusMessage } from '@agora/common/messaging';
import type { SocialContext } from '../context';
import { applyInbound, type Outcome } from '../inbound/apply';
import { isObject } from '../inbound/shape';
import { blocksOf } from '../federation/blocks';

export const INBOX_QUEUE = 'social.inbox';
const CONSUMED = ['inbox.accepted'] as const;

export async function processInbound(ctx: SocialContext, raw: BusMessage): Promise<void> {
  const { activityId, signerDomain } = decodeEvent(raw, CONSUMED).payload;
  const stored = await ctx.stores.activities.byId(activityId);
  if (!stored?.inbound || stored.inbound.status !== 'accepted') return;
  let outcome: Outcome;
  let activity: unknown;
  try {
    activity = JSON.parse(stored.raw ?? '');
  } catch {
    activity = undefined;
  }
  if (!isObject(activity)) outcome = { status: 'rejected', reason: 'the stored activity is not JSON' };
  // Accepted before an admin blocked its domain: not applied.
  else if (await blocksOf(ctx).isBlocked(signerDomain))
    outcome = { status: 'rejected', reason: 'the domain is blocked' };
  else
    outcome = await applyInbound(ctx, { type: stored.type, actorId: stored.actorId, signerDomain, activity });
  const { events, ...recorded } = outcome;
  if (events?.length) {
    // Kept in the outbox under a key of their own (the activity's row holds `inbox.accepted`),
    // so the relay publishes them if this process stops before the broker confirms them.
    const key = `${activityId}#applied`;
    await ctx.stores.activities.queueEvents(key, events);
    await publishEvents(ctx, key, events);
  }
  await ctx.stores.activities.setInbound(activityId, {
    ...stored.inbound,
    ...recorded,
    processedAt: new Date(),
  });
}

export async function startInbox(ctx: SocialContext): Promise<void> {
  await ctx.events.subscribe(INBOX_QUEUE, CONSUMED, (msg) => processInbound(ctx, msg));
}
