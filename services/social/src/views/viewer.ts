/** The viewer of a request, built once per request and cached on it. */
import type { Request } from 'express';
import { buildViewer, type Runtime, type Viewer } from '@agora/common';

const CACHE = Symbol('viewer');

export async function viewerOf(rt: Runtime, req: Request): Promise<Viewer> {
  const r = req as Request & { [CACHE]?: Promise<Viewer> };
  r[CACHE] ??= buildViewer(rt.repos.models, rt.config.DOMAIN, req.auth?.user);
  return r[CACHE];
}
