import { Router, handler, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { serverProfile } from '../../views/server-profile';

/**
 * GET /: the server profile for API clients. Browsers asking for HTML get the web app from the
 * gateway before the request gets here (spec 1.7).
 */
export default function homeRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ set }) => setAll(set, await serverProfile(ctx))),
  );
  return r;
}
export { openapi } from '../openapi';
