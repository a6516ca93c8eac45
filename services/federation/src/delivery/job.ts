import type { JobPayload } from '@agora/common/messaging';
import type { FederationContext } from '../context';

/** A delivery job (the catalogue's `federation.deliver`): one activity to one remote inbox, with its attempt. */
export const DELIVER_QUEUE = 'federation.deliver';
export type DeliveryJob = JobPayload<typeof DELIVER_QUEUE>;

/** One job's key: the same activity to the same inbox is one delivery (the planner's message id too). */
export const jobKey = (job: Pick<DeliveryJob, 'activity' | 'inbox'>): string =>
  `${job.activity.id}>${job.inbox}`;

const idOf = (v: unknown): string | undefined => {
  const id = typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v;
  return typeof id === 'string' && id ? id : undefined;
};

/**
 * What an activity is about, for ordering: a post's Create, Update and Delete share the post's
 * id; a Follow and its Undo share the followed actor. A later activity about the same thing is
 * never sent to a server before an earlier one that is still held for it.
 */
export function objectKeyOf(activity: DeliveryJob['activity']): string {
  const object = activity.object;
  if (activity.type === 'Undo' && typeof object === 'object' && object !== null) {
    const inner = object as { object?: unknown };
    return idOf(inner.object) ?? idOf(object) ?? activity.id;
  }
  return idOf(object) ?? activity.id;
}

/**
 * Puts one first-attempt job on the delivery queue; the queue's message id is its key, so a
 * re-planned event enqueues it once. `writtenAt` is the source event's publish time (the
 * order the writes happened in, which the planner's parallel runs do not keep).
 */
export async function enqueueDelivery(
  ctx: Pick<FederationContext, 'events'>,
  to: { inbox: string; domain: string },
  activity: DeliveryJob['activity'],
  writtenAt?: string,
  /** Another server's ActivityPub activity, forwarded unchanged by this local actor (its URL). */
  forwardedBy?: string,
): Promise<void> {
  const job: DeliveryJob = {
    ...to,
    activity,
    attempt: 1,
    ...(writtenAt ? { writtenAt } : {}),
    ...(forwardedBy ? { forwardedBy } : {}),
  };
  await ctx.events.enqueue(DELIVER_QUEUE, job, { id: jobKey(job) });
}
