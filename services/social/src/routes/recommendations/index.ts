import { Router, handler, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { discover } from '../../views/discover';

/** GET /recommendations: the public Discover feed (views/discover.ts). */
export default function recommendationRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ req, set }) => setAll(set, await discover(ctx, await viewerOf(ctx, req)))),
  );
  return r;
}
