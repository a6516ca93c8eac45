/**
 * Circle access tiers of spec 4.2: `@public` → anyone; `@<domain>` → local authenticated users;
 * anything else → the owner or members only. A circle the viewer may not see answers the same
 * 404 as a missing one, whoever asks (anonymous, local user or another server).
 */
import type { Viewer } from '@agora/common/audience';
import { STAMPS } from '@agora/common/cache';
import type { CircleRecord } from '@agora/common/db';
import { NotFound, Unauthorized } from '@agora/common/errors';
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

export async function checkCircleAccess(
  ctx: SocialContext,
  circle: CircleRecord,
  viewer: Viewer,
  opts: { requireAuth?: boolean } = {},
): Promise<CircleAccess> {
  const domain = ctx.config.DOMAIN;
  const isOwner = viewer.id !== undefined && circle.actorId === viewer.id;
  const isMember = viewer.id !== undefined && (circle.members ?? []).some((m) => m.id === viewer.id);
  const serverRole = [
    await ctx.stores.settings.get<string>('adminCircle'),
    await ctx.stores.settings.get<string>('modCircle'),
  ].includes(circle.id);
  if (serverRole && !viewer.isAdmin && !isMember) throw new NotFound('Circle not found');
  const to = circle.to ?? '';
  const visible =
    to === '@public' ||
    ((to === `@${domain}` || to === '@server') && !!viewer.id && viewer.local) ||
    isOwner ||
    isMember ||
    (viewer.isAdmin && serverRole);
  // Not for this viewer reads exactly like missing (docs/security.md, existence oracles).
  if (!visible) throw new NotFound('Circle not found');
  // "user" routes are for this server's users: another server's signature does not make one.
  if (opts.requireAuth && !(viewer.id && viewer.local)) throw new Unauthorized();
  return { circle, isOwner, isMember };
}
