/**
 * A viewer's place in a group (behaviour-notes §3.8): the group's roles live in its five circles,
 * and membership is the members circle, never a copy. Handlers and views both ask here.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import type { GroupDoc } from '@agora/common/db';
import { NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';

export type GroupRecord = GroupDoc & { createdAt?: Date; updatedAt?: Date };
export type GroupRole = 'admins' | 'moderators' | 'members' | 'pending' | 'blocked';
export const GROUP_ROLES: GroupRole[] = ['admins', 'moderators', 'members', 'pending', 'blocked'];

/** Local and remote group ids have one shape: `group:<24 hex>@<domain>`. */
export const GROUP_ID = /^group:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

/** A live local group by id; null when missing, deleted or not a group id. */
export async function findGroup(ctx: SocialContext, id: unknown): Promise<GroupRecord | null> {
  if (typeof id !== 'string' || !GROUP_ID.test(id)) return null;
  return ctx.stores.groups.liveById(id);
}

export async function loadGroup(ctx: SocialContext, id: unknown): Promise<GroupRecord> {
  const group = await findGroup(ctx, id);
  if (!group) throw new NotFound('Group not found');
  return group;
}

export type GroupRoles = Record<GroupRole, boolean>;

const NO_ROLES: GroupRoles = {
  admins: false,
  moderators: false,
  members: false,
  pending: false,
  blocked: false,
};

/** Which of the group's circles `userId` is in (one query over the five circles). */
export async function groupRoles(
  ctx: SocialContext,
  group: GroupRecord,
  userId: string | undefined,
): Promise<GroupRoles> {
  if (!userId) return { ...NO_ROLES };
  const byCircle = new Map<string, GroupRole>();
  for (const role of GROUP_ROLES) {
    const circleId = group.circles?.[role];
    if (circleId) byCircle.set(circleId, role);
  }
  const { circles } = await ctx.stores.circles.membershipsOf(userId);
  const roles = { ...NO_ROLES };
  for (const c of circles) {
    const role = byCircle.get(c);
    if (role) roles[role] = true;
  }
  return roles;
}

/** The member ids of one of the group's circles. */
export async function circleMemberIds(
  ctx: SocialContext,
  group: GroupRecord,
  role: GroupRole,
): Promise<string[]> {
  const circleId = group.circles?.[role];
  if (!circleId) return [];
  return ctx.stores.circles.memberIds(circleId);
}

/**
 * Whether the viewer may read the group's posts: its members, and the group's own audience
 * (ADR 0023): anyone for a `@public` group, every local user for a server group, that circle's
 * members for a group addressed to a circle.
 */
export function canReadGroupPosts(
  group: GroupRecord,
  viewer: Viewer,
  domain: string,
): 'ok' | 'anonymous' | 'denied' {
  if (viewer.groupIds.includes(group.id)) return 'ok';
  if (canSee({ to: group.to ?? null, actorId: null }, viewer, domain)) return 'ok';
  return viewer.id ? 'denied' : 'anonymous';
}
