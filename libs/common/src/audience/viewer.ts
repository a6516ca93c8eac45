/**
 * Audiences of spec section 2: `@public` (anyone), `@<domain>` (local authenticated users),
 * `circle:…` (the owner or members of that circle), `group:…` (group members), `@user@domain`
 * and `""` (the owner only). One viewer context per request; every read path checks through it.
 */

export interface Viewer {
  /** Undefined for anonymous viewers. */
  id?: string;
  /** A user of this server (remote or anonymous viewers see `@public` only). */
  local: boolean;
  isAdmin: boolean;
  /** Circles the viewer is a member of. */
  circleIds: string[];
  /** Groups the viewer is a member of. */
  groupIds: string[];
}

export const ANONYMOUS: Viewer = { local: false, isAdmin: false, circleIds: [], groupIds: [] };

/** Where a viewer's memberships come from (the circles store's membership index). */
export interface MembershipSource {
  membershipsOf(memberId: string): Promise<{ circles: string[]; groups: string[] }>;
}

/**
 * The viewer for a user: a local user with their circles and groups (a read of the membership
 * index), a remote user with public access only. Another server's circle cached here that holds
 * this server (`@<domain>`) holds every local user. This server's own circles holding it do not:
 * there `@<domain>` is the server actor that users follow for announcements.
 */
export async function buildViewer(
  source: MembershipSource,
  domain: string,
  user: { id: string; isServerAdmin?: boolean } | undefined,
): Promise<Viewer> {
  if (!user) return ANONYMOUS;
  const local = user.id.endsWith(`@${domain}`);
  if (!local) return { id: user.id, local: false, isAdmin: false, circleIds: [], groupIds: [] };
  const [m, server] = await Promise.all([source.membershipsOf(user.id), source.membershipsOf(`@${domain}`)]);
  return {
    id: user.id,
    local,
    isAdmin: user.isServerAdmin === true,
    circleIds: [...new Set([...m.circles, ...server.circles.filter((id) => !id.endsWith(`@${domain}`))])],
    groupIds: m.groups,
  };
}

/** The `to` values this viewer may read (besides their own objects). */
export function readableAudiences(viewer: Viewer, domain: string): string[] {
  const out = ['@public'];
  if (viewer.id && viewer.local) out.push(`@${domain}`, '@server');
  if (viewer.id) out.push(viewer.id, ...viewer.circleIds, ...viewer.groupIds);
  return out;
}

export interface Addressed {
  to?: string | null;
  actorId?: string | null;
  deletedAt?: Date | null;
}

/** Whether the viewer may read an object addressed with `to`. */
export function canSee(obj: Addressed, viewer: Viewer, domain: string): boolean {
  if (obj.deletedAt) return false;
  if (viewer.id && obj.actorId === viewer.id) return true;
  const to = obj.to ?? '';
  if (to === '@public') return true;
  if (!viewer.id) return false;
  if (to === `@${domain}` || to === '@server') return viewer.local;
  if (to.startsWith('circle:')) return viewer.circleIds.includes(to);
  if (to.startsWith('group:')) return viewer.groupIds.includes(to);
  return to !== '' && to === viewer.id;
}

/** The MongoDB filter matching what the viewer may read (own objects included). */
export function visibleFilter(viewer: Viewer, domain: string): Record<string, unknown> {
  const to = { to: { $in: readableAudiences(viewer, domain) } };
  return viewer.id ? { $or: [to, { actorId: viewer.id }], deletedAt: null } : { ...to, deletedAt: null };
}

/** Whether an audience capability (`canReply` / `canReact`) admits the viewer. */
export function capabilityAllows(
  capability: string | null | undefined,
  owner: Addressed,
  viewer: Viewer,
  domain: string,
): boolean {
  if (!viewer.id) return false;
  const cap = capability || owner.to || '';
  if (cap === 'none') return owner.actorId === viewer.id;
  return canSee({ to: cap, actorId: owner.actorId ?? null }, viewer, domain);
}

/** The coarse tier label clients show. */
export function tierOf(to: string | null | undefined, domain: string): 'Public' | 'Server' | 'Audience' {
  if (to === '@public') return 'Public';
  if (to === `@${domain}` || to === '@server') return 'Server';
  return 'Audience';
}
