/**
 * The viewer of a request, built once per request and cached on it. A local viewer's circles
 * and groups come from the stamped viewer cache: any membership change bumps their stamp. A
 * request signed by another server is that server (`@<domain>`) as a remote viewer: public
 * content, plus what is addressed to circles that hold the server as a member.
 */
import type { Request } from 'express';
import { buildViewer, type Viewer } from '@agora/common/audience';
import { STAMPS } from '@agora/common/cache';
import type { SocialContext } from '../context';
import { cachesOf, stamped } from '../timelines/cache';
import { refuseBlocked } from '../federation/blocks';

const CACHE = Symbol('viewer');

export async function viewerOf(ctx: SocialContext, req: Request): Promise<Viewer> {
  const r = req as Request & { [CACHE]?: Promise<Viewer> };
  const remote = req.auth?.remote;
  r[CACHE] ??= remote ? remoteViewer(ctx, `@${remote.signerDomain}`) : viewerFor(ctx, req.auth?.user);
  return r[CACHE];
}

/**
 * A server's memberships change through the same repository hook, so its stamp covers them. A
 * blocked server reads nothing (403).
 */
async function remoteViewer(ctx: SocialContext, id: string): Promise<Viewer> {
  await refuseBlocked(ctx, id.slice(1));
  return stamped(ctx, cachesOf(ctx).viewers, [STAMPS.viewer(id)], id, async () => {
    const { circles } = await ctx.stores.circles.membershipsOf(id);
    return { id, local: false, isAdmin: false, circleIds: circles, groupIds: [] };
  });
}

/** The viewer for a user (their memberships from the stamped cache when local). */
export async function viewerFor(
  ctx: SocialContext,
  user: { id: string; isServerAdmin?: boolean } | undefined,
): Promise<Viewer> {
  const domain = ctx.config.DOMAIN;
  if (!user?.id.endsWith(`@${domain}`)) return buildViewer(ctx.stores.circles, domain, user);
  // The server's own stamp too: circles holding `@<domain>` hold every local user.
  const stamps = [STAMPS.viewer(user.id), STAMPS.viewer(`@${domain}`)];
  const base = await stamped(ctx, cachesOf(ctx).viewers, stamps, user.id, () =>
    buildViewer(ctx.stores.circles, domain, { id: user.id }),
  );
  return { ...base, isAdmin: user.isServerAdmin === true };
}
