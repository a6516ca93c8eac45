/**
 * The viewer of a request, built once per request and cached on it. A local viewer's circles
 * and groups come from the stamped viewer cache: any membership change bumps their stamp. A
 * request signed by another server is that server (`@<domain>`) as a remote viewer: public
 * content, plus what is addressed to circles that hold the server as a member.
 */
import type { Request } from 'express';
import { buildViewer, type Viewer } from '@agora/common/audience';
import { STAMPS } from '@agora/common/cache';
import type { Runtime } from '@agora/common/runtime';
import { cachesOf, stamped } from '../timelines/cache';

const CACHE = Symbol('viewer');

export async function viewerOf(rt: Runtime, req: Request): Promise<Viewer> {
  const r = req as Request & { [CACHE]?: Promise<Viewer> };
  const remote = req.auth?.remote;
  r[CACHE] ??= remote ? remoteViewer(rt, `@${remote.signerDomain}`) : viewerFor(rt, req.auth?.user);
  return r[CACHE];
}

/** A server's memberships change through the same repository hook, so its stamp covers them. */
async function remoteViewer(rt: Runtime, id: string): Promise<Viewer> {
  return stamped(rt, cachesOf(rt).viewers, [STAMPS.viewer(id)], id, async () => {
    const { circles } = await rt.repos.circles.membershipsOf(id);
    return { id, local: false, isAdmin: false, circleIds: circles, groupIds: [] };
  });
}

/** The viewer for a user (their memberships from the stamped cache when local). */
export async function viewerFor(
  rt: Runtime,
  user: { id: string; isServerAdmin?: boolean } | undefined,
): Promise<Viewer> {
  const domain = rt.config.DOMAIN;
  if (!user?.id.endsWith(`@${domain}`)) return buildViewer(rt.repos.circles, domain, user);
  const base = await stamped(rt, cachesOf(rt).viewers, [STAMPS.viewer(user.id)], user.id, () =>
    buildViewer(rt.repos.circles, domain, { id: user.id }),
  );
  return { ...base, isAdmin: user.isServerAdmin === true };
}
