/**
 * Notifications about people and groups (behaviour-notes §6.2): follows, join requests and
 * approvals.
 *
 * "X followed you" is the `user.followed` event of a Follow activity, and also `member.added`
 * when the circle is the owner's own Following circle (an Add to Following is the same act).
 * Adding someone to any other circle is private curation and notifies nobody.
 */
import type { EventPayload } from '@agora/common/messaging';
import type { NotificationsContext } from '../context';
import type { Intent } from './create';
import { hrefOf, userHref } from './objects';
import { isLocalUser } from './audience';

function followIntent(ctx: NotificationsContext, followerId: string, followedId: string): Intent {
  return {
    type: 'follow',
    recipientId: followedId,
    actorId: followerId,
    objectId: followerId,
    objectType: 'User',
    href: userHref(ctx.config.publicUrl, followerId),
    // Follow, unfollow, follow again: one pending notification, not three.
    groupKey: `follow:${followerId}`,
    summary: (name) => `${name} followed you`,
  };
}

export function onUserFollowed(
  ctx: NotificationsContext,
  p: EventPayload<'user.followed'>,
): Promise<Intent[]> {
  return Promise.resolve([followIntent(ctx, p.actorId, p.targetId)]);
}

export async function onMemberAdded(
  ctx: NotificationsContext,
  p: EventPayload<'member.added'>,
): Promise<Intent[]> {
  if (!isLocalUser(p.ownerId, ctx.config.DOMAIN)) return [];
  const owner = await ctx.stores.users.findById(p.ownerId);
  if (!owner?.circles?.following || owner.circles.following !== p.circleId) return [];
  return [followIntent(ctx, p.ownerId, p.memberId)];
}

async function groupName(ctx: NotificationsContext, groupId: string): Promise<string | null> {
  const group = await ctx.stores.groups.liveById(groupId);
  return group ? (group.name ?? 'the group') : null;
}

/** Each admin of the group hears about a pending join request. */
export async function onJoinRequested(
  ctx: NotificationsContext,
  p: EventPayload<'group.join_requested'>,
): Promise<Intent[]> {
  const name = await groupName(ctx, p.groupId);
  if (name === null) return [];
  return [...new Set(p.adminIds)].map((recipientId) => ({
    type: 'join_request',
    recipientId,
    actorId: p.actorId,
    objectId: p.groupId,
    objectType: 'Group',
    href: hrefOf(ctx.config.publicUrl, 'group', p.groupId),
    groupKey: `join_request:${p.groupId}:${p.actorId}`,
    summary: (actor) => `${actor} requested to join "${name}"`,
  }));
}

/** The member whose pending request an admin approved. */
export async function onJoinApproved(
  ctx: NotificationsContext,
  p: EventPayload<'group.join_approved'>,
): Promise<Intent[]> {
  const name = await groupName(ctx, p.groupId);
  if (name === null) return [];
  return [
    {
      type: 'join_approved',
      recipientId: p.memberId,
      actorId: p.actorId,
      objectId: p.groupId,
      objectType: 'Group',
      href: hrefOf(ctx.config.publicUrl, 'group', p.groupId),
      groupKey: `join_approved:${p.groupId}:${p.memberId}`,
      summary: () => `Your request to join "${name}" was approved`,
    },
  ];
}
