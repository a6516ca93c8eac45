/**
 * The ActivityPub follow handshake. Inbound: a Follow of a local user (its object the user's
 * actor URL) is answered with Accept, or Reject when the user blocked the follower, sent to the
 * follower's shared inbox, else its inbox, as its actor document names them. Outbound: a local
 * user's Follow of a URL-identified actor (found by handle through WebFinger) waits as `pending`
 * until the actor's Accept (or Reject) names it.
 */
import { createHash } from 'node:crypto';
import { STAMPS } from '@agora/common/cache';
import type { RemoteActorRecord } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { enqueueDelivery, type DeliveryJob } from '../delivery/job';
import { localIdOf, localUrlOf } from './ids';
import { resolveHandle } from './resolve';
import { AP_CONTEXT } from './vocab';

type Json = Record<string, unknown>;
const idOf = (v: unknown): string | undefined => {
  const id = typeof v === 'object' && v !== null ? (v as Json).id : v;
  return typeof id === 'string' ? id : undefined;
};

export function inboxFor(actor: RemoteActorRecord): string {
  return actor.sharedInbox ?? actor.inbox;
}

function enqueue(ctx: FederationContext, inbox: string, activity: DeliveryJob['activity']): Promise<void> {
  return enqueueDelivery(ctx, { inbox, domain: domainOf(inbox) ?? '' }, activity);
}

/** Answers a Follow of a local user: 'accepted', 'rejected' (blocked), or 'ignored' (not a local user). */
export async function answerFollow(
  ctx: FederationContext,
  follow: Json,
  actor: RemoteActorRecord,
): Promise<'accepted' | 'rejected' | 'ignored'> {
  const target = idOf(follow.object);
  const localId = target ? localIdOf(ctx.config, target) : undefined;
  if (!target || !localId || !localId.includes('@', 1)) return 'ignored';
  const user = await ctx.stores.users.findActiveById(localId);
  if (!user) return 'ignored';
  const blocked = user.circles?.blocked
    ? await ctx.stores.circles.isMember(user.circles.blocked, actor.handle)
    : false;
  const type = blocked ? 'Reject' : 'Accept';
  const hash = createHash('sha256').update(String(follow.id)).digest('hex').slice(0, 24);
  await enqueue(ctx, inboxFor(actor), {
    '@context': AP_CONTEXT,
    id: `${target}#${type.toLowerCase()}-${hash}`,
    type,
    actor: target,
    object: { id: follow.id, type: 'Follow', actor: actor._id, object: target },
  });
  return blocked ? 'rejected' : 'accepted';
}

/**
 * An Accept or Reject of a local user's pending Follow, by the followed actor. A Reject also takes
 * the actor out of the user's Following circle (the spec's Follow put them there at once), so
 * the timeline and the circle say what the actor agreed to.
 */
export async function settleFollow(
  ctx: FederationContext,
  activity: Json,
  actor: RemoteActorRecord,
  type: 'Accept' | 'Reject',
): Promise<void> {
  const followId = idOf(activity.object);
  if (!followId) return;
  const follow = await ctx.stores.activityPub.followByActivity(followId);
  if (!follow || follow.remoteUrl !== actor._id) return;
  await ctx.stores.activityPub.setFollowState(follow._id, type === 'Accept' ? 'accepted' : 'rejected');
  if (type === 'Accept') return;
  const user = await ctx.stores.users.findActiveById(follow.localId);
  const circle = user?.circles?.following;
  if (!circle || !(await ctx.stores.circles.removeMember(circle, actor.handle))) return;
  // What the user reads next (their timelines, their circle) must show it, as after an Unfollow.
  await ctx.stamps.bump([STAMPS.viewer(follow.localId), STAMPS.circle(circle)]);
}

/**
 * A local user followed (or unfollowed) `@carol@peer.test` on a server that speaks ActivityPub:
 * the Follow (or its Undo) goes to the actor's inbox in ActivityPub form. False when the handle
 * names no ActivityPub actor (the spec's wire is used then).
 */
export async function planActivityPubFollow(
  ctx: FederationContext,
  localId: string,
  handle: string,
  eventId: string,
  undo: boolean,
): Promise<boolean> {
  const actor = await resolveHandle(ctx, handle).catch(() => undefined);
  const localUrl = localUrlOf(ctx.config, localId);
  if (!actor || !localUrl) return false;
  const previous = await ctx.stores.activityPub.follow(localId, actor._id);
  const followId =
    undo && previous ? previous.activityId : `${localUrl}#follow-${encodeURIComponent(eventId)}`;
  const follow = { id: followId, type: 'Follow', actor: localUrl, object: actor._id };
  if (undo) {
    await ctx.stores.activityPub.dropFollow(localId, actor._id);
    await enqueue(ctx, inboxFor(actor), {
      '@context': AP_CONTEXT,
      id: `${localUrl}#undo-${encodeURIComponent(eventId)}`,
      type: 'Undo',
      actor: localUrl,
      object: follow,
    });
    return true;
  }
  await ctx.stores.activityPub.putFollow({
    localId,
    remoteUrl: actor._id,
    state: 'pending',
    activityId: followId,
  });
  await enqueue(ctx, inboxFor(actor), { '@context': AP_CONTEXT, ...follow });
  return true;
}
