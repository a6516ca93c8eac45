/**
 * The viewer of a request, built once per request and cached on it. A local viewer's circles
 * and groups come from the stamped viewer cache: any membership change bumps their stamp. A
 * request signed by another server is that server (`@<domain>`) as a remote viewer: public
 * content, plus what is addressed to circles that hold the server as a member.
 */
import type { Request } from 'express';
import { buildViewer, STAMPS, type AuthUser, type Runtime, type Viewer } from '@agora/common';
import { cachesOf, stamped } from '../timelines/cache';

const CACHE = Symbol('viewer');

export async function viewerOf(rt: Runtime, req: Request): Promise<Viewer> {
  const r = req as Request & { [CACHE]?: Promise<Viewer> };
  const remote = req.auth?.remote;
  r[CACHE] ??= remote ? remoteViewer(rt, `@${remote.signerDomain}`) : cachedViewer(rt, req.auth?.user);
  return r[CACHE];
}

/** A server's memberships change through the same repository hook, so its stamp covers them. */
async function remoteViewer(rt: Runtime, id: string): Promise<Viewer> {
  return stamped(rt, cachesOf(rt).viewers, [STAMPS.viewer(id)], id, async () => {
    const circles = await rt.repos.models.Circle.find(
      { 'members.id': id, deletedAt: null },
      { id: 1 },
    ).lean();
    return { id, local: false, isAdmin: false, circleIds: circles.map((c) => c.id), groupIds: [] };
  });
}

async function cachedViewer(rt: Runtime, user: AuthUser | undefined): Promise<Viewer> {
  const { models } = rt.repos;
  const domain = rt.config.DOMAIN;
  if (!user?.id.endsWith(`@${domain}`)) return buildViewer(models, domain, user);
  const base = await stamped(rt, cachesOf(rt).viewers, [STAMPS.viewer(user.id)], user.id, () =>
    buildViewer(models, domain, { id: user.id }),
  );
  return { ...base, isAdmin: user.isServerAdmin === true };
}
