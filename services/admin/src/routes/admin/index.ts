import { Router, handler, mountSub } from '@agora/common/http';
import type { AdminContext } from '../../context';
import { activitiesRouter } from '../../activities/router';
import { backupRouter } from '../../backup/router';
import { flaggedRouter } from '../../flagged/router';
import { adminGuard } from '../../guard';
import { invitesRouter } from '../../invites/router';
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
export default function adminRoutes({ rt }: AdminContext): Router {
  const r = Router();
  r.use(adminGuard(rt));
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
  mountSub(r, '/activities', activitiesRouter(rt));
  mountSub(r, '/backup', backupRouter(rt));
  mountSub(r, '/flagged', flaggedRouter(rt));
  mountSub(r, '/invites', invitesRouter(rt));
  mountSub(r, '/settings', settingsRouter(rt));
  mountSub(r, '/system', systemRouter(rt));
  mountSub(r, '/users', usersRouter(rt));
  mountSub(r, '/posts', postsRouter(rt));
  mountSub(r, '/circles', circlesRouter(rt));
  mountSub(r, '/groups', groupsRouter(rt));
  mountSub(r, '/pages', pagesRouter(rt));
  mountSub(r, '/sections', sectionsRouter(rt));
  mountSub(r, '/recommendations', recommendationsRouter(rt));
  return r;
}
