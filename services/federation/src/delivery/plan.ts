/**
 * The delivery planner: what happens locally that other servers must know becomes one job per
 * activity and inbox on a durable queue (decisions.md §6). Posts of every audience, circle
 * membership, circles deleted, profile updates, account deletions, suspensions and restores are planned in
 * audience-plan.ts (who receives them is audience.ts); a local user following or unfollowing a
 * remote user (`user.followed`, `user.unfollowed`) → Follow or Undo to that user's server.
 * Replies and reactions are planned in threads.ts, Flag forwarding in flag.ts.
 * Activity ids derive from the event's id, so a redelivered event plans the same activities,
 * which receivers deduplicate.
 */
import { parseId } from '@agora/common/db';
import { sharedInboxOf } from '@agora/common/federation';
import { decodeEvent, type BusMessage, type EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import { followActivity } from './activity';
import { planActivityPubFollow } from '../activitypub/follow';
import { isAgoraPeer } from '../activitypub/wire';
import {
  planAccountDeletion,
  planAccountRestore,
  planCircleDeleted,
  planMembership,
  planPost,
  planProfileUpdate,
  type PlannedDelivery,
} from './audience-plan';
import { planFlagForward } from './flag';
import { GROUP_EVENTS, planGroupEvent, planGroupMembership } from './group-plan';
import { enqueueDelivery } from './job';
import { THREAD_EVENTS, planThread } from './threads';

export const PLAN_QUEUE = 'federation.plan';
const PLANNED = [
  // Replies and reactions, with their edits and removals (threads.ts).
  ...THREAD_EVENTS,
  'post.created',
  'post.updated',
  'post.deleted',
  'user.followed',
  'user.unfollowed',
  'user.deleted',
  'user.restored',
  'user.updated',
  'member.added',
  'member.removed',
  'circle.deleted',
  'flag.created',
  ...GROUP_EVENTS,
] as const;
type Planned = EventMessage<(typeof PLANNED)[number]>;

/** A local user followed or unfollowed a remote user: tell the remote server. */
async function planFollow(
  ctx: FederationContext,
  msg: EventMessage<'user.followed' | 'user.unfollowed'>,
): Promise<number> {
  const { actorId, targetId } = msg.payload;
  const target = parseId(targetId);
  if (target.type !== 'User' || !target.domain || target.domain === ctx.config.DOMAIN) return 0;
  const undo = msg.name === 'user.unfollowed';
  // A server that does not speak the spec's protocol, whose user WebFinger finds: ActivityPub.
  if (
    !(await isAgoraPeer(ctx, target.domain)) &&
    (await planActivityPubFollow(ctx, actorId, targetId, msg.id, undo))
  )
    return 1;
  await enqueueDelivery(
    ctx,
    { inbox: sharedInboxOf(ctx.config, target.domain), domain: target.domain },
    followActivity(ctx, actorId, targetId, msg.id, undo),
    msg.publishedAt,
  );
  return 1;
}

async function enqueueAll(ctx: FederationContext, msg: Planned, planned: PlannedDelivery[]): Promise<number> {
  for (const p of planned) await enqueueDelivery(ctx, p, p.activity, msg.publishedAt);
  return planned.length;
}

export async function planDeliveries(ctx: FederationContext, raw: BusMessage): Promise<number> {
  const msg: Planned = decodeEvent(raw, PLANNED);
  switch (msg.name) {
    case 'reply.created':
    case 'reply.updated':
    case 'reply.deleted':
    case 'react.added':
    case 'react.updated':
    case 'react.removed':
    case 'react.deleted':
    case 'reply.refused':
    case 'react.refused':
      return planThread(ctx, msg);
    case 'user.followed':
    case 'user.unfollowed':
      return planFollow(ctx, msg);
    case 'user.deleted':
      return enqueueAll(ctx, msg, await planAccountDeletion(ctx, msg));
    case 'user.restored':
      return enqueueAll(ctx, msg, await planAccountRestore(ctx, msg));
    case 'user.updated':
      return enqueueAll(ctx, msg, await planProfileUpdate(ctx, msg));
    case 'post.created':
    case 'post.updated':
    case 'post.deleted':
      return enqueueAll(ctx, msg, await planPost(ctx, msg));
    case 'member.added':
    case 'member.removed':
      return enqueueAll(ctx, msg, [
        ...(await planMembership(ctx, msg)),
        ...(await planGroupMembership(ctx, msg)),
      ]);
    case 'circle.deleted':
      return enqueueAll(ctx, msg, await planCircleDeleted(ctx, msg));
    case 'group.post_received':
    case 'group.updated':
    case 'group.deleted':
    case 'group.join_sent':
    case 'group.leave_sent':
    case 'group.join_approved':
    case 'group.join_rejected':
      return enqueueAll(ctx, msg, await planGroupEvent(ctx, msg));
    case 'flag.created':
      return planFlagForward(ctx, msg);
  }
}

export async function startPlanner(ctx: FederationContext): Promise<void> {
  await ctx.events.subscribe(PLAN_QUEUE, PLANNED, async (msg) => {
    await planDeliveries(ctx, msg);
  });
}
