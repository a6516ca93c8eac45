/**
 * Reading groups (behaviour-notes §3.8, audience-checked): the group list fields, a page of a
 * group's members, and the groups a user belongs to (GET /users/:id/groups). Roles and who may
 * read a group's posts are access/groups.ts.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import { newestFirst } from '@agora/common/db';
import { orderedCollection, type Paging } from '@agora/common/http';
import type { SocialContext } from '../context';
import type { GroupRecord, GroupRole } from '../access/groups';

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
