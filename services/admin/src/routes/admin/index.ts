import { Router, handler } from '@agora/common/http';
import type { AdminContext } from '../../context';
import { activitiesRouter } from '../../activities/router';
import { backupRouter } from '../../backup/router';
import { flaggedRouter } from '../../flagged/router';
import { adminGuard } from '../../guard';
import { invitesRouter } from '../../invites/router';
import { serversRouter } from '../../servers/router';
import { settingsRouter } from '../../settings/router';
import { systemRouter } from '../../system/router';
import { usersRouter } from '../../users/router';
import { postsRouter } from '../../posts/router';
import { circlesRouter } from '../../circles/router';
import { groupsRouter } from '../../groups/router';
import { pagesRouter } from '../../pages/router';
import { sectionsRouter } from '../../curation/sections';
import { recommendationsRouter } from '../../curation/recommendations';

/** /admin: every route behind the admin guard. */
export default function adminRoutes(ctx: AdminContext): Router {
  const r = Router();
  r.use(adminGuard(ctx));
  // GET /admin/whoami: the admin the token belongs to (used by the dashboard to check access).
  r.get(
    '/whoami',
    handler(({ user, set }) => {
      set('user', {
        id: user!.id,
        username: user!.username,
        isServerAdmin: user!.isServerAdmin,
        isModerator: user!.isModerator,
      });
    }),
  );
  const sections = {
    '/activities': activitiesRouter,
    '/backup': backupRouter,
    '/flagged': flaggedRouter,
    '/invites': invitesRouter,
    '/servers': serversRouter,
    '/settings': settingsRouter,
    '/system': systemRouter,
    '/users': usersRouter,
    '/posts': postsRouter,
    '/circles': circlesRouter,
    '/groups': groupsRouter,
    '/pages': pagesRouter,
    '/sections': sectionsRouter,
    '/recommendations': recommendationsRouter,
  };
  for (const [path, router] of Object.entries(sections)) r.use(path, router(ctx));
  return r;
}
export { openapi } from './openapi';
