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
import { PermanentMessageError, type BusMessage } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';
import { USER_DELETED, userDeletedPayload } from '@agora/common/messaging';
import {
  createActivity,
  deleteActivity,
  deleteActorActivity,
  followActivity,
  updateActivity,
} from './activity';
import { DELIVER_QUEUE, type DeliveryJob } from './job';

export const PLAN_QUEUE = 'federation.plan';

interface PlanEvent {
  postId?: string;
  objectId?: string;
  fields?: string[];
  actorId?: string;
  targetId?: string;
}

async function enqueue(rt: Runtime, inbox: string, domain: string, activity: Record<string, unknown>) {
  const job: DeliveryJob = { inbox, domain, activity, attempt: 1 };
  await rt.bus.enqueue(DELIVER_QUEUE, job, { id: `${String(activity.id)}>${inbox}` });
}

/** A local user followed or unfollowed a remote user: tell the remote server. */
async function planFollow(rt: Runtime, msg: BusMessage<PlanEvent>): Promise<number> {
  const { actorId, targetId } = msg.payload;
  if (typeof actorId !== 'string' || typeof targetId !== 'string') return 0;
  const target = parseId(targetId);
  if (target.type !== 'User' || !target.domain || target.domain === rt.config.DOMAIN) return 0;
  const undo = msg.name === 'user.unfollowed';
  await enqueue(
    rt,
    sharedInboxOf(rt.config, target.domain),
    target.domain,
    followActivity(rt, actorId, targetId, msg.id, undo),
  );
  return 1;
}

async function deliverToFollowers(rt: Runtime, authorId: string, activity: Record<string, unknown>) {
  const followers = await rt.repos.followers.ofUser(authorId);
  const inboxes = new Map(followers.map((f) => [f.inbox, f.domain]));
  for (const [inbox, domain] of inboxes) await enqueue(rt, inbox, domain, activity);
  return inboxes.size;
}

/** The post an event is about, when it is local (its author is one of ours). */
async function localPost(rt: Runtime, id: unknown): Promise<PostDoc | undefined> {
  if (typeof id !== 'string') return undefined;
  const post = await rt.repos.posts.byId(id);
  return post && post.actorId.endsWith(`@${rt.config.DOMAIN}`) && !post.originDomain ? post : undefined;
}

/**
 * A local account was deleted: every server that follows it gets a Delete of the actor (their
 * copies of its posts go with it). The follower rows stay until then: they are the audience.
 */
async function planAccountDeletion(rt: Runtime, msg: BusMessage<unknown>): Promise<number> {
  const parsed = userDeletedPayload.safeParse(msg.payload);
  if (!parsed.success) throw new PermanentMessageError(`${USER_DELETED}: ${parsed.error.issues[0]!.message}`);
  const { userId } = parsed.data;
  if (!userId.endsWith(`@${rt.config.DOMAIN}`)) return 0;
  return deliverToFollowers(rt, userId, deleteActorActivity(rt, userId, msg.id));
}

export async function planDeliveries(rt: Runtime, msg: BusMessage<PlanEvent>): Promise<number> {
  if (msg.name === 'user.followed' || msg.name === 'user.unfollowed') return planFollow(rt, msg);
  if (msg.name === USER_DELETED) return planAccountDeletion(rt, msg);
  const post = await localPost(rt, msg.payload.postId ?? msg.payload.objectId);
  if (!post) return 0;
  const isPublic = post.to === '@public';
  const audienceChanged = (msg.payload.fields ?? []).includes('to');
  switch (msg.name) {
    case 'post.created':
      return isPublic && !post.deletedAt ? deliverToFollowers(rt, post.actorId, createActivity(rt, post)) : 0;
    case 'post.updated':
      if (post.deletedAt) return 0;
      if (isPublic)
        return deliverToFollowers(
          rt,
          post.actorId,
          audienceChanged ? createActivity(rt, post, msg.id) : updateActivity(rt, post, msg.id),
        );
      return audienceChanged ? deliverToFollowers(rt, post.actorId, deleteActivity(rt, post, msg.id)) : 0;
    case 'post.deleted':
      return isPublic ? deliverToFollowers(rt, post.actorId, deleteActivity(rt, post, msg.id)) : 0;
    default:
      return 0;
  }
}

export async function startPlanner(rt: Runtime): Promise<void> {
  const events = [
    'post.created',
    'post.updated',
    'post.deleted',
    'user.followed',
    'user.unfollowed',
    USER_DELETED,
  ];
  await rt.bus.subscribe<PlanEvent>(PLAN_QUEUE, events, async (msg) => {
    await planDeliveries(rt, msg);
  });
}
