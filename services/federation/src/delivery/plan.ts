/**
 * The delivery planner: what happens to a local public post is delivered to every remote inbox
 * that follows its author, one job per activity and inbox on a durable queue (decisions.md §6).
 * `post.created` → Create; `post.updated` → Update (Create when it just became public, Delete
 * when it stopped being public); `post.deleted` → Delete. A local user following or unfollowing
 * a remote user (`user.followed`, `user.unfollowed`) → Follow or Undo to that user's server.
 * Activity ids derive from the event's id, so a redelivered event plans the same activities,
 * which receivers deduplicate.
 */
import { parseId, type PostDoc } from '@agora/common/db';
import { sharedInboxOf } from '@agora/common/federation';
import { decodeEvent, type BusMessage, type EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import {
  createActivity,
  deleteActivity,
  deleteActorActivity,
  followActivity,
  updateActivity,
} from './activity';
import { planFlagForward } from './flag';
import { DELIVER_QUEUE, type DeliveryJob } from './job';
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
  'flag.created',
] as const;
type Planned = EventMessage<(typeof PLANNED)[number]>;

async function enqueue(
  ctx: FederationContext,
  inbox: string,
  domain: string,
  activity: DeliveryJob['activity'],
) {
  const job: DeliveryJob = { inbox, domain, activity, attempt: 1 };
  await ctx.events.enqueue(DELIVER_QUEUE, job, { id: `${activity.id}>${inbox}` });
}

/** A local user followed or unfollowed a remote user: tell the remote server. */
async function planFollow(
  ctx: FederationContext,
  msg: EventMessage<'user.followed' | 'user.unfollowed'>,
): Promise<number> {
  const { actorId, targetId } = msg.payload;
  const target = parseId(targetId);
  if (target.type !== 'User' || !target.domain || target.domain === ctx.config.DOMAIN) return 0;
  const undo = msg.name === 'user.unfollowed';
  await enqueue(
    ctx,
    sharedInboxOf(ctx.config, target.domain),
    target.domain,
    followActivity(ctx, actorId, targetId, msg.id, undo),
  );
  return 1;
}

async function deliverToFollowers(
  ctx: FederationContext,
  authorId: string,
  activity: DeliveryJob['activity'],
) {
  const followers = await ctx.stores.followers.ofUser(authorId);
  const inboxes = new Map(followers.map((f) => [f.inbox, f.domain]));
  for (const [inbox, domain] of inboxes) await enqueue(ctx, inbox, domain, activity);
  return inboxes.size;
}

/** The post an event is about, when it is local (its author is one of ours). */
async function localPost(ctx: FederationContext, id: string): Promise<PostDoc | undefined> {
  const post = await ctx.stores.posts.byId(id);
  return post && post.actorId.endsWith(`@${ctx.config.DOMAIN}`) && !post.originDomain ? post : undefined;
}

/**
 * A local account was deleted: every server that follows it gets a Delete of the actor (their
 * copies of its posts go with it). The follower rows stay until then: they are the audience.
 */
async function planAccountDeletion(
  ctx: FederationContext,
  msg: EventMessage<'user.deleted'>,
): Promise<number> {
  const { userId } = msg.payload;
  if (!userId.endsWith(`@${ctx.config.DOMAIN}`)) return 0;
  return deliverToFollowers(ctx, userId, deleteActorActivity(ctx, userId, msg.id));
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
      return planAccountDeletion(ctx, msg);
    case 'flag.created':
      return planFlagForward(ctx, msg);
    case 'post.created': {
      const post = await localPost(ctx, msg.payload.postId);
      return post && post.to === '@public' && !post.deletedAt
        ? deliverToFollowers(ctx, post.actorId, createActivity(ctx, post))
        : 0;
    }
    case 'post.updated': {
      const post = await localPost(ctx, msg.payload.objectId);
      if (!post || post.deletedAt) return 0;
      const audienceChanged = msg.payload.fields.includes('to');
      if (post.to === '@public')
        return deliverToFollowers(
          ctx,
          post.actorId,
          audienceChanged ? createActivity(ctx, post, msg.id) : updateActivity(ctx, post, msg.id),
        );
      return audienceChanged ? deliverToFollowers(ctx, post.actorId, deleteActivity(ctx, post, msg.id)) : 0;
    }
    case 'post.deleted': {
      const post = await localPost(ctx, msg.payload.objectId);
      return post?.to === '@public'
        ? deliverToFollowers(ctx, post.actorId, deleteActivity(ctx, post, msg.id))
        : 0;
    }
  }
}

export async function startPlanner(ctx: FederationContext): Promise<void> {
  await ctx.events.subscribe(PLAN_QUEUE, PLANNED, async (msg) => {
    await planDeliveries(ctx, msg);
  });
}
