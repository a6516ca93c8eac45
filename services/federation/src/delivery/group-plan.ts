/**
 * What group membership across servers sends (docs/federation.md, "Groups"). On the member's
 * server: a local user's Join or Leave of another server's group (`group.join_sent`,
 * `group.leave_sent`) → Join or Leave to the group's server, which decides. On the group's
 * server: a remote member added or removed (`member.added` / `member.removed` of its members
 * circle: joined, approved, added by an admin, left, removed, blocked) → Add or Remove to the
 * member's server, stating the member's state now with every member of the group there; a remote
 * user's request approved or refused (`group.join_approved` / `group.join_rejected`) → Accept or
 * Reject of the Join, so their server tells them. Posts to groups go by audience.ts.
 */
import { parseId } from '@agora/common/db';
import { sharedInboxOf } from '@agora/common/federation';
import type { EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import {
  circleTargets,
  deliveryTargets,
  describeCircle,
  describeGroup,
  localGroup,
  membersByDomain,
} from './audience';
import type { PlannedDelivery } from './audience-plan';
import { membershipActivity } from './audience-activity';
import { createActivity, deleteActivity, updateActivity } from './activity';
import { addressed } from './audience-activity';
import { answerActivity, groupChangeActivity, joinActivity, relayActivity } from './group-activity';

export const GROUP_EVENTS = [
  'group.post_received',
  'group.updated',
  'group.deleted',
  'group.join_sent',
  'group.leave_sent',
  'group.join_approved',
  'group.join_rejected',
] as const;

/** The remote server of a user id, when it is not this one. */
function remoteDomain(ctx: FederationContext, id: string): string | undefined {
  const p = parseId(id);
  return p.type === 'User' && p.domain && p.domain !== ctx.config.DOMAIN ? p.domain : undefined;
}

function to(
  ctx: FederationContext,
  domain: string,
  activity: PlannedDelivery['activity'],
): PlannedDelivery[] {
  return [{ inbox: sharedInboxOf(ctx.config, domain), domain, activity }];
}

/** A remote user's place in a local group changed: their server caches the group's members there. */
export async function planGroupMembership(
  ctx: FederationContext,
  msg: EventMessage<'member.added' | 'member.removed'>,
): Promise<PlannedDelivery[]> {
  const { groupId, circleId, memberId } = msg.payload;
  const domain = remoteDomain(ctx, memberId);
  if (!groupId || !domain) return [];
  const local = await localGroup(ctx, groupId);
  if (!local || local.members.id !== circleId) return [];
  const members =
    membersByDomain(
      ctx.config.DOMAIN,
      (local.members.members ?? []).map((m) => m.id),
    ).get(domain) ?? [];
  const activity = membershipActivity(ctx, describeCircle(local.members), memberId, members, msg.id);
  const target = activity.target as Record<string, unknown>;
  return to(ctx, domain, { ...activity, target: { ...target, group: describeGroup(local.group) } });
}

export async function planGroupEvent(
  ctx: FederationContext,
  msg: EventMessage<(typeof GROUP_EVENTS)[number]>,
): Promise<PlannedDelivery[]> {
  if (msg.name === 'group.post_received') return planRelay(ctx, msg);
  if (msg.name === 'group.updated' || msg.name === 'group.deleted') return planGroupChange(ctx, msg);
  if (msg.name === 'group.join_sent' || msg.name === 'group.leave_sent') {
    const { groupId, actorId } = msg.payload;
    const domain = parseId(groupId).domain;
    if (!domain || domain === ctx.config.DOMAIN || !actorId.endsWith(`@${ctx.config.DOMAIN}`)) return [];
    const type = msg.name === 'group.join_sent' ? 'Join' : 'Leave';
    return to(ctx, domain, joinActivity(ctx, type, actorId, groupId, msg.id));
  }
  const { groupId, memberId } = msg.payload;
  const domain = remoteDomain(ctx, memberId);
  if (!domain) return [];
  const local = await localGroup(ctx, groupId);
  if (!local) return [];
  const type = msg.name === 'group.join_approved' ? 'Accept' : 'Reject';
  return to(ctx, domain, answerActivity(ctx, type, describeGroup(local.group), memberId, msg.id));
}

/**
 * A remote member's post to a local group was applied here: every other server among the group's
 * members gets its activity, addressed to the group and naming its members there, relayed by the
 * group (`Announce`). The author's own server is left out (it holds the post).
 */
async function planRelay(
  ctx: FederationContext,
  msg: EventMessage<'group.post_received'>,
): Promise<PlannedDelivery[]> {
  const { groupId, postId, change, originDomain } = msg.payload;
  const post = await ctx.stores.posts.byId(postId);
  if (!post || post.group !== groupId || post.originDomain !== originDomain) return [];
  const audience = await deliveryTargets(ctx, { actorId: post.actorId, to: groupId });
  const inner =
    change === 'create'
      ? createActivity(ctx, post, msg.id)
      : change === 'update'
        ? updateActivity(ctx, post, msg.id)
        : deleteActivity(ctx, post, msg.id);
  return audience.targets
    .filter((t) => t.domain !== originDomain)
    .map((t) => ({
      inbox: t.inbox,
      domain: t.domain,
      activity: relayActivity(ctx, groupId, addressed(inner, audience, t), msg.id),
    }));
}

/**
 * A local group's description changed, or it was deleted: the servers of its members refresh or
 * delete their cached copy (a deleted group's members there lose what was addressed to it).
 */
async function planGroupChange(
  ctx: FederationContext,
  msg: EventMessage<'group.updated' | 'group.deleted'>,
): Promise<PlannedDelivery[]> {
  const id = msg.payload.objectId;
  const group = await ctx.stores.groups.byId(id);
  if (!group || group.originDomain || !id.endsWith(`@${ctx.config.DOMAIN}`)) return [];
  const deleted = msg.name === 'group.deleted';
  if (deleted !== !!group.deletedAt) return [];
  const members = group.circles?.members ? await ctx.stores.circles.byId(group.circles.members) : null;
  if (!members) return [];
  const activity = groupChangeActivity(ctx, deleted ? 'Delete' : 'Update', describeGroup(group), msg.id);
  return circleTargets(ctx, members).map((t) => ({ inbox: t.inbox, domain: t.domain, activity }));
}
