import { Router, handler, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { serverProfile } from '../../views/server-profile';

/** GET /profile: the same server profile as GET / (browser navigations get the web app). */
export default function profileRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ set }) => setAll(set, await serverProfile(ctx))),
  );
  return r;
}
