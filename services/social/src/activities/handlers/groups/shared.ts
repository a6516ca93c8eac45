/**
 * Group membership writes shared by Join/Leave and Add/Remove. There are no transactions
 * (decisions.md §1): every step is a single-document atomic update that is safe to repeat, and
 * `memberCount` moves only when the members circle really changed.
 */
import type { Member } from '@agora/common/db';
import { BadRequest, Conflict } from '@agora/common/errors';
import type { SocialContext } from '../../../context';
import { idString, parse } from '../../validate';
import {
  circleMemberIds,
  GROUP_ID,
  loadGroup,
  type GroupRecord,
  type GroupRole,
} from '../../../access/groups';

/** A group id from the activity, local only until federation arrives. */
export function localGroupId(ctx: SocialContext, value: unknown, field: string): string {
  const id = parse(idString, value, field);
  if (!GROUP_ID.test(id)) throw new BadRequest(`${field}: must be a group id`);
  if (id.slice(id.lastIndexOf('@') + 1) !== ctx.config.DOMAIN)
    throw new BadRequest('Remote groups are not supported yet');
  return id;
}

export async function loadLocalGroup(
  ctx: SocialContext,
  value: unknown,
  field: string,
): Promise<GroupRecord> {
  return loadGroup(ctx, localGroupId(ctx, value, field));
}

export function circleOf(group: GroupRecord, role: GroupRole): string {
  const id = group.circles?.[role];
  // Every local group is created with its five circles; a group without one is corrupt.
  if (!id) throw new Error(`group ${group.id} has no ${role} circle`);
  return id;
}

/** How a group is kept in a user's Groups system circle. */
function asMember(group: GroupRecord): Member {
  return { id: group.id, type: 'Group', name: group.name, icon: group.icon ?? '', url: group.url ?? '' };
}

async function groupsCircleOf(ctx: SocialContext, userId: string): Promise<string | null> {
  const user = await ctx.stores.users.findById(userId);
  return user?.circles?.groups || null;
}

export async function addToGroupsCircle(
  ctx: SocialContext,
  userId: string,
  group: GroupRecord,
): Promise<void> {
  const circleId = await groupsCircleOf(ctx, userId);
  if (circleId) await ctx.stores.circles.addMember(circleId, asMember(group));
}

/**
 * Removes a member from a circle; true only when one was really removed (the store moves the
 * count by one, and of concurrent removes exactly one answers true).
 */
export async function removeCircleMember(
  ctx: SocialContext,
  circleId: string,
  memberId: string,
): Promise<boolean> {
  return ctx.stores.circles.removeMember(circleId, memberId);
}

export async function dropFromGroupsCircle(
  ctx: SocialContext,
  userId: string,
  groupId: string,
): Promise<void> {
  const circleId = await groupsCircleOf(ctx, userId);
  if (circleId) await removeCircleMember(ctx, circleId, groupId);
}

/**
 * Puts `member` into the members circle (approving a pending request on the way). Returns
 * whether they were newly added; the count and their Groups circle follow only then.
 */
export async function enrol(ctx: SocialContext, group: GroupRecord, member: Member): Promise<boolean> {
  await removeCircleMember(ctx, circleOf(group, 'pending'), member.id);
  const added = await ctx.stores.circles.addMember(circleOf(group, 'members'), member);
  if (!added) return false;
  await ctx.stores.groups.bumpMembers(group.id, 1);
  await addToGroupsCircle(ctx, member.id, group);
  return true;
}

/**
 * Takes `memberId` out of the members and pending circles and drops their roles. Returns which
 * of members / pending they were removed from.
 */
export async function disenrol(
  ctx: SocialContext,
  group: GroupRecord,
  memberId: string,
): Promise<{ members: boolean; pending: boolean }> {
  const members = await removeCircleMember(ctx, circleOf(group, 'members'), memberId);
  const pending = await removeCircleMember(ctx, circleOf(group, 'pending'), memberId);
  await removeCircleMember(ctx, circleOf(group, 'admins'), memberId);
  await removeCircleMember(ctx, circleOf(group, 'moderators'), memberId);
  // Never below zero, whatever happened to the counter before.
  if (members) await ctx.stores.groups.bumpMembers(group.id, -1);
  // The reference left the group in the member's Groups circle on Remove (its drift bug).
  await dropFromGroupsCircle(ctx, memberId, group.id);
  return { members, pending };
}

/**
 * A group must keep an admin while it has other members: the last admin can neither leave,
 * be removed, nor lose the role until someone else holds it.
 */
export async function assertKeepsAnAdmin(
  ctx: SocialContext,
  group: GroupRecord,
  losingId: string,
  opts: { roleOnly?: boolean } = {},
): Promise<void> {
  const admins = await circleMemberIds(ctx, group, 'admins');
  if (!admins.includes(losingId) || admins.length > 1) return;
  if (!opts.roleOnly) {
    const members = await circleMemberIds(ctx, group, 'members');
    if (members.every((m) => m === losingId)) return;
  }
  throw new Conflict('A group needs an admin: make another member admin first');
}

/** The group as returned in handler results (fresh, without storage internals). */
export async function freshGroup(
  ctx: SocialContext,
  groupId: string,
): Promise<Record<string, unknown> | null> {
  const g = await ctx.stores.groups.byId(groupId);
  if (!g) return null;
  const { _id, __v, ...rest } = g as Record<string, unknown>;
  void _id;
  void __v;
  return rest;
}
