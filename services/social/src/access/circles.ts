/**
 * Circle access tiers of spec 4.2: `@public` → anyone; `@<domain>` → local authenticated users;
 * anything else → the owner or members only.
 *
 * Two ways to refuse, by caller:
 * - the circle routes (`GET /circles/:id`, `/members`, `/posts`) answer with the spec's own
 *   status codes (rule 2 and section 7): 401 when unauthenticated and the circle is not public,
 *   403 when authenticated but denied, 404 when missing. This is a deliberate exception to the
 *   existence-oracle rule (docs/security.md): the spec stands where it names the codes.
 * - everything else that names a circle (addressing it in an activity, reacting to it) answers
 *   404, exactly as for a missing one.
 */
import type { Viewer } from '@agora/common/audience';
import { STAMPS } from '@agora/common/cache';
import type { CircleRecord } from '@agora/common/db';
import { NotAuthorized, NotFound, Unauthorized } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { cachesOf, stamped } from '../timelines/cache';

export interface CircleAccess {
  circle: CircleRecord;
  isOwner: boolean;
  isMember: boolean;
}

/** The circle, or 404. `cached`: from the stamped circle cache (exact members and audience). */
export async function loadCircle(
  ctx: SocialContext,
  id: string,
  opts: { cached?: boolean } = {},
): Promise<CircleRecord> {
  if (typeof id !== 'string') throw new NotFound('Circle not found');
  const load = async () => {
    const circle = await ctx.stores.circles.findById(id);
    if (!circle) throw new NotFound('Circle not found');
    return circle;
  };
  return opts.cached ? stamped(ctx, cachesOf(ctx).circles, [STAMPS.circle(id)], id, load) : load();
}

/** Whether `viewer` may see `circle`, with the viewer's relation to it. */
async function decide(
  ctx: SocialContext,
  circle: CircleRecord,
  viewer: Viewer,
): Promise<CircleAccess & { visible: boolean }> {
  const domain = ctx.config.DOMAIN;
  const isOwner = viewer.id !== undefined && circle.actorId === viewer.id;
  const isMember = viewer.id !== undefined && (circle.members ?? []).some((m) => m.id === viewer.id);
  const serverRole = [
    await ctx.stores.settings.get<string>('adminCircle'),
    await ctx.stores.settings.get<string>('modCircle'),
  ].includes(circle.id);
  const to = circle.to ?? '';
  // The server's role circles are for their members and the admins, whatever their audience.
  const visible = serverRole
    ? viewer.isAdmin || isMember
    : to === '@public' ||
      ((to === `@${domain}` || to === '@server') && !!viewer.id && viewer.local) ||
      isOwner ||
      isMember;
  return { circle, isOwner, isMember, visible };
}

/** For anything but the circle routes: a circle the viewer may not see is 404, as if missing. */
export async function checkCircleAccess(
  ctx: SocialContext,
  circle: CircleRecord,
  viewer: Viewer,
): Promise<CircleAccess> {
  const { visible, ...access } = await decide(ctx, circle, viewer);
  if (!visible) throw new NotFound('Circle not found');
  return access;
}

/**
 * For the circle routes, with spec 4.2's codes. `requireUser` (`GET /circles/:id/posts`, rule 3):
 * only this server's signed-in users, so any other request is 401 before the circle is looked up
 * (another server's signature does not make a user).
 */
export async function circleForRoute(
  ctx: SocialContext,
  id: string,
  viewer: Viewer,
  opts: { requireUser?: boolean; cached?: boolean } = {},
): Promise<CircleAccess> {
  const user = !!viewer.id && viewer.local;
  if (opts.requireUser && !user) throw new Unauthorized();
  const { visible, ...access } = await decide(
    ctx,
    await loadCircle(ctx, id, opts.cached ? { cached: true } : {}),
    viewer,
  );
  if (visible) return access;
  if (!viewer.id) throw new Unauthorized();
  throw new NotAuthorized('Access denied');
}
