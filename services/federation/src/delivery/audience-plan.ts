/**
 * What each local change sends, and to whom (audience.ts decides who): posts of every audience,
 * circle membership of remote actors, circles deleted, profile updates and account deletions.
 * Each planner returns the deliveries; plan.ts enqueues them.
 *
 * - post created → Create to every target of its audience (a public one also to the
 *   ActivityPub actors it mentions: mentions.ts; a share to the original's author: shares.ts);
 * - post edited → Update to every target of its audience (it carries the whole post, so a server
 *   that holds no copy yet makes one: one the new audience of a moved post reaches); when its
 *   audience changed (`previousTo`), Delete to the servers the new audience leaves out (none of
 *   their users may see it any more);
 * - post deleted → Delete to the targets of its audience;
 * - member added or removed (user-made circles only) → Add or Remove, as the member's state now,
 *   to the member's server, with that server's members of the circle;
 * - circle deleted → Delete of the circle to its members' servers;
 * - profile changed → Update of the actor to every server holding copies of it (actorPeers);
 * - account deleted (its owner's delete, an admin's full delete) → Delete of the actor to the
 *   same servers;
 * - account suspended (an admin's soft delete) or restored → Update of the actor to the same
 *   servers, marked `suspended` or not (ADR 0028): reversible, so never a Delete. ActivityPub
 *   peers get it in ActivityPub form with the `toot:suspended` term (actor-update.ts).
 */
import { type PostDoc } from '@agora/common/db';
import { sharedInboxOf } from '@agora/common/federation';
import type { EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import {
  createActivity,
  deleteActivity,
  deleteActorActivity,
  updateActivity,
  type OutgoingActivity,
} from './activity';
import {
  actorPeers,
  circleTargets,
  deliveryTargets,
  describeCircle,
  localCircle,
  membersByDomain,
  type Audience,
} from './audience';
import {
  addressed,
  deleteCircleActivity,
  membershipActivity,
  updateActorActivity,
} from './audience-activity';
import { withMentioned } from './mentions';
import { withSharedAuthor } from './shares';
import { actorUpdateActivity } from '../activitypub/actor-update';
import { speaksActivityPub } from '../activitypub/wire';

/** One activity to one inbox. */
export interface PlannedDelivery {
  inbox: string;
  domain: string;
  activity: OutgoingActivity;
}

const isLocal = (ctx: FederationContext, id: string) => id.endsWith(`@${ctx.config.DOMAIN}`);

/** The post an event is about, when it is local (its author is one of ours). */
async function localPost(ctx: FederationContext, id: string): Promise<PostDoc | undefined> {
  const post = await ctx.stores.posts.byId(id);
  return post && isLocal(ctx, post.actorId) && !post.originDomain ? post : undefined;
}

function toEach(audience: Audience, activity: OutgoingActivity): PlannedDelivery[] {
  return audience.targets.map((t) => ({
    inbox: t.inbox,
    domain: t.domain,
    activity: addressed(activity, audience, t),
  }));
}

/**
 * Who receives a post's Create, Update or Delete: its audience's servers and whom it mentions; a
 * share's (ADR 0024): the sharer's followers and the original's author (shares.ts).
 */
async function audienceOf(ctx: FederationContext, post: PostDoc): Promise<Audience> {
  const audience = await deliveryTargets(ctx, post);
  return post.shareOf ? withSharedAuthor(ctx, post, audience) : withMentioned(ctx, post, audience);
}

export async function planPost(
  ctx: FederationContext,
  msg: EventMessage<'post.created' | 'post.updated' | 'post.deleted'>,
): Promise<PlannedDelivery[]> {
  switch (msg.name) {
    case 'post.created': {
      const post = await localPost(ctx, msg.payload.postId);
      if (!post || post.deletedAt) return [];
      return toEach(await audienceOf(ctx, post), createActivity(ctx, post));
    }
    case 'post.deleted': {
      const post = await localPost(ctx, msg.payload.objectId);
      if (!post) return [];
      return toEach(await audienceOf(ctx, post), deleteActivity(ctx, post, msg.id));
    }
    case 'post.updated':
      return planPostUpdate(ctx, msg);
  }
}

async function planPostUpdate(
  ctx: FederationContext,
  msg: EventMessage<'post.updated'>,
): Promise<PlannedDelivery[]> {
  const post = await localPost(ctx, msg.payload.objectId);
  if (!post || post.deletedAt) return [];
  const now = await audienceOf(ctx, post);
  const update = toEach(now, updateActivity(ctx, post, msg.id));
  if (!msg.payload.fields.includes('to')) return update;
  // Without `previousTo` (an admin's change, a restore): what was public before unless it is now.
  const before = msg.payload.previousTo ?? (post.to === '@public' ? '' : '@public');
  const then = await deliveryTargets(ctx, { actorId: post.actorId, to: before });
  const kept = new Set(now.targets.map((t) => t.inbox));
  const gone = then.targets.filter((t) => !kept.has(t.inbox));
  return [
    ...update,
    ...toEach({ ...then, targets: gone }, deleteActivity(ctx, { ...post, to: before }, msg.id)),
  ];
}

/**
 * A remote actor joined or left a user-made circle of this server: its server is told the
 * member's state now (Add or Remove), with every member of the circle on that server. Group
 * circles (group-plan.ts) and system circles (Following is a Follow, Blocked must
 * never be told) send nothing.
 */
export async function planMembership(
  ctx: FederationContext,
  msg: EventMessage<'member.added' | 'member.removed'>,
): Promise<PlannedDelivery[]> {
  const { circleId, memberId } = msg.payload;
  const circle = await localCircle(ctx, circleId);
  if (!circle || circle.type !== 'Circle' || circle.grants || !isLocal(ctx, circle.actorId)) return [];
  const [entry] = membersByDomain(ctx.config.DOMAIN, [memberId]);
  if (!entry) return [];
  const [domain] = entry;
  const members =
    membersByDomain(
      ctx.config.DOMAIN,
      (circle.members ?? []).map((m) => m.id),
    ).get(domain) ?? [];
  return [
    {
      inbox: sharedInboxOf(ctx.config, domain),
      domain,
      activity: membershipActivity(ctx, describeCircle(circle), memberId, members, msg.id),
    },
  ];
}

/** A circle of this server was deleted: its remote members' servers drop their copy. */
export async function planCircleDeleted(
  ctx: FederationContext,
  msg: EventMessage<'circle.deleted'>,
): Promise<PlannedDelivery[]> {
  const circle = await ctx.stores.circles.byId(msg.payload.objectId);
  if (!circle || circle.originDomain || circle.type !== 'Circle' || !isLocal(ctx, circle.actorId)) return [];
  const activity = deleteCircleActivity(ctx, circle, msg.id);
  return circleTargets(ctx, circle).map((t) => ({ inbox: t.inbox, domain: t.domain, activity }));
}

/** A local user changed their name or icon: every server holding copies of them refreshes them. */
export async function planProfileUpdate(
  ctx: FederationContext,
  msg: EventMessage<'user.updated'>,
): Promise<PlannedDelivery[]> {
  const { userId, fields } = msg.payload;
  if (!isLocal(ctx, userId) || !fields.some((f) => f.startsWith('profile'))) return [];
  const user = await ctx.stores.users.findActiveById(userId);
  if (!user) return [];
  const activity = updateActorActivity(ctx, user, msg.id);
  return (await actorPeers(ctx, userId)).map((t) => ({ inbox: t.inbox, domain: t.domain, activity }));
}

/**
 * A local account was deleted (its content withdrawn here at once): every server holding
 * something of it gets a Delete of the actor and drops it (copies of its posts, its place in
 * their circles and groups, its follows). An admin's soft delete is a suspension instead.
 */
export async function planAccountDeletion(
  ctx: FederationContext,
  msg: EventMessage<'user.deleted'>,
): Promise<PlannedDelivery[]> {
  const { userId } = msg.payload;
  if (!isLocal(ctx, userId)) return [];
  if (msg.payload.suspension && !msg.payload.hard) return planSuspension(ctx, userId, msg.id, true);
  const activity = deleteActorActivity(ctx, userId, msg.id);
  return (await actorPeers(ctx, userId, { deleted: true })).map((t) => ({
    inbox: t.inbox,
    domain: t.domain,
    activity,
  }));
}

/** An admin restored a local account: the servers holding it hear that it is not suspended. */
export async function planAccountRestore(
  ctx: FederationContext,
  msg: EventMessage<'user.restored'>,
): Promise<PlannedDelivery[]> {
  const { userId } = msg.payload;
  if (!isLocal(ctx, userId)) return [];
  return planSuspension(ctx, userId, msg.id, false);
}

/**
 * An Update of the actor, marked suspended or not, to every server holding something of it: an
 * ActivityPub peer in ActivityPub form, a spec-protocol peer on the spec's wire (both may act on
 * `suspended`, and undo it at the next Update). Nothing is sent that a restore could not undo.
 */
async function planSuspension(
  ctx: FederationContext,
  userId: string,
  eventId: string,
  suspended: boolean,
): Promise<PlannedDelivery[]> {
  const user = await ctx.stores.users.findById(userId);
  if (!user) return [];
  const spec = updateActorActivity(ctx, user, eventId, { suspended });
  let ap: OutgoingActivity | undefined;
  const out: PlannedDelivery[] = [];
  for (const t of await actorPeers(ctx, userId)) {
    const activity = (await speaksActivityPub(ctx, t.domain))
      ? (ap ??= await actorUpdateActivity(ctx, user, eventId, suspended))
      : spec;
    out.push({ inbox: t.inbox, domain: t.domain, activity });
  }
  return out;
}
