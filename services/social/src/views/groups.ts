/**
 * Reading groups (behaviour-notes §3.8, audience-checked): a viewer's roles in a group, the
 * group list fields, and the groups a user belongs to (GET /users/:id/groups). A group's roles
 * live in its five circles; membership is the members circle, never a copy.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import { newestFirst, type GroupDoc } from '@agora/common/db';
import { NotFound } from '@agora/common/errors';
import { orderedCollection, type Paging } from '@agora/common/http';
import type { SocialContext } from '../context';

export type GroupRecord = GroupDoc & { createdAt?: Date; updatedAt?: Date };
export type GroupRole = 'admins' | 'moderators' | 'members' | 'pending' | 'blocked';
export const GROUP_ROLES: GroupRole[] = ['admins', 'moderators', 'members', 'pending', 'blocked'];

/** Local and remote group ids have one shape: `group:<24 hex>@<domain>`. */
export const GROUP_ID = /^group:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

/** Fields of a group in lists (§3.8). */
export const GROUP_LIST_FIELDS = {
  _id: 0,
  id: 1,
  type: 1,
  objectType: 1,
  name: 1,
  description: 1,
  icon: 1,
  to: 1,
  rsvpPolicy: 1,
  memberCount: 1,
  url: 1,
  createdAt: 1,
  updatedAt: 1,
} as const;

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

/** A page of one of the group's circles as a spec 1.5 collection. */
export async function circleMembersCollection(
  ctx: SocialContext,
  group: GroupRecord,
  role: GroupRole,
  base: string,
  search: URLSearchParams,
  paging: Paging,
) {
  const circleId = group.circles?.[role];
  const circle = circleId ? await ctx.stores.circles.liveById(circleId) : null;
  const members = circle?.members ?? [];
  return orderedCollection({
    base,
    search,
    paging,
    total: members.length,
    items: members.slice(paging.skip, paging.skip + paging.limit),
  });
}

/**
 * Whether the viewer may read the group's posts: anyone for a `@public` group, otherwise its
 * members only (the posts themselves are addressed to the group).
 */
export function canReadGroupPosts(group: GroupRecord, viewer: Viewer): 'ok' | 'anonymous' | 'denied' {
  if (group.to === '@public') return 'ok';
  if (!viewer.id) return 'anonymous';
  return viewer.groupIds.includes(group.id) ? 'ok' : 'denied';
}

/**
 * GET /users/:id/groups: the groups `ownerId` is a member of that the viewer may see, newest
 * first, as a spec 1.5 collection. Membership is read from the groups' members circles.
 */
const placeOf = (g: { id: string; createdAt?: Date | string | null }) => ({
  at: new Date(g.createdAt ?? 0),
  id: g.id,
});

export async function listUserGroups(ctx: SocialContext, viewer: Viewer, ownerId: string, paging: Paging) {
  const base = `${ctx.config.publicUrl}/users/${ownerId}/groups`;
  // The groups a user is a member of come from the membership index; each is checked against
  // the viewer, newest first.
  const { groups: groupIds } =
    typeof ownerId === 'string' ? await ctx.stores.circles.membershipsOf(ownerId) : { groups: [] };
  const found = await ctx.stores.groups.liveByIds(groupIds);
  const visible = [...found.values()]
    .filter(
      (g) =>
        canSee({ to: g.to, actorId: g.actorId }, viewer, ctx.config.DOMAIN) ||
        (viewer.id && viewer.groupIds.includes(g.id)),
    )
    // Newest first, ties by id (a total order: pages by offset never overlap).
    .sort((a, b) => newestFirst(placeOf(a), placeOf(b)));
  const pick = (g: Record<string, unknown>) =>
    Object.fromEntries(
      Object.keys(GROUP_LIST_FIELDS)
        .filter((k) => k !== '_id' && k in g)
        .map((k) => [k, g[k]]),
    );
  const total = visible.length;
  const items = visible.slice(paging.skip, paging.skip + paging.limit).map((g) => pick(g as never));
  return orderedCollection({ base, paging, total, items });
}
