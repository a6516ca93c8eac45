/**
 * The delivery planner: a local public post becomes one delivery job per remote inbox that
 * follows its author (decisions.md §6: one job per activity and inbox, on a durable queue).
 * Consumes `post.created`; the job ids are deterministic, so a redelivered event re-enqueues
 * jobs that receivers deduplicate by activity id.
 */
import type { BusMessage, PostDoc, Runtime } from '@agora/common';
import { createActivity } from './activity';
import { DELIVER_QUEUE, type DeliveryJob } from './job';

export const PLAN_QUEUE = 'federation.plan';

interface PostCreated {
  postId: string;
  actorId: string;
  to: string;
}

export async function planDeliveries(rt: Runtime, msg: BusMessage<PostCreated>): Promise<number> {
  const { postId, actorId, to } = msg.payload;
  if (to !== '@public' || typeof postId !== 'string' || !actorId?.endsWith(`@${rt.config.DOMAIN}`)) return 0;
  const { Post, RemoteFollower } = rt.repos.models;
  const post = await Post.findOne({ id: postId, deletedAt: null }).lean<PostDoc>();
  if (!post) return 0;
  const followers = await RemoteFollower.find({ userId: actorId }, { inbox: 1, domain: 1 }).lean();
  const inboxes = new Map(followers.map((f) => [f.inbox, f.domain]));
  const activity = createActivity(rt, post);
  for (const [inbox, domain] of inboxes) {
    const job: DeliveryJob = { inbox, domain, activity, attempt: 1 };
    await rt.bus.enqueue(DELIVER_QUEUE, job, { id: `${String(activity.id)}>${inbox}` });
  }
  return inboxes.size;
}

export async function startPlanner(rt: Runtime): Promise<void> {
  await rt.bus.subscribe<PostCreated>(PLAN_QUEUE, ['post.created'], async (msg) => {
    await planDeliveries(rt, msg);
  });
}
