/**
 * The delivery planner: what happens to a local public post is delivered to every remote inbox
 * that follows its author, one job per activity and inbox on a durable queue (decisions.md §6).
 * `post.created` → Create; `post.updated` → Update (Create when it just became public, Delete
 * when it stopped being public); `post.deleted` → Delete. Activity ids derive from the event's
 * id, so a redelivered event plans the same activities, which receivers deduplicate.
 */
import type { BusMessage, PostDoc, Runtime } from '@agora/common';
import { createActivity, deleteActivity, updateActivity } from './activity';
import { DELIVER_QUEUE, type DeliveryJob } from './job';

export const PLAN_QUEUE = 'federation.plan';

interface PostEvent {
  postId?: string;
  objectId?: string;
  fields?: string[];
}

async function deliverToFollowers(rt: Runtime, authorId: string, activity: Record<string, unknown>) {
  const followers = await rt.repos.models.RemoteFollower.find(
    { userId: authorId },
    { inbox: 1, domain: 1 },
  ).lean();
  const inboxes = new Map(followers.map((f) => [f.inbox, f.domain]));
  for (const [inbox, domain] of inboxes) {
    const job: DeliveryJob = { inbox, domain, activity, attempt: 1 };
    await rt.bus.enqueue(DELIVER_QUEUE, job, { id: `${String(activity.id)}>${inbox}` });
  }
  return inboxes.size;
}

/** The post an event is about, when it is local (its author is one of ours). */
async function localPost(rt: Runtime, id: unknown): Promise<PostDoc | undefined> {
  if (typeof id !== 'string') return undefined;
  const post = await rt.repos.models.Post.findOne({ id }).lean<PostDoc>();
  return post && post.actorId.endsWith(`@${rt.config.DOMAIN}`) && !post.originDomain ? post : undefined;
}

export async function planDeliveries(rt: Runtime, msg: BusMessage<PostEvent>): Promise<number> {
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
  await rt.bus.subscribe<PostEvent>(
    PLAN_QUEUE,
    ['post.created', 'post.updated', 'post.deleted'],
    async (msg) => {
      await planDeliveries(rt, msg);
    },
  );
}
