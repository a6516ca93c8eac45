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
  mountSub(r, '/activities', activitiesRouter(ctx));
  mountSub(r, '/backup', backupRouter(ctx));
  mountSub(r, '/flagged', flaggedRouter(ctx));
  mountSub(r, '/invites', invitesRouter(ctx));
  mountSub(r, '/settings', settingsRouter(ctx));
  mountSub(r, '/system', systemRouter(ctx));
  mountSub(r, '/users', usersRouter(ctx));
  mountSub(r, '/posts', postsRouter(ctx));
  mountSub(r, '/circles', circlesRouter(ctx));
  mountSub(r, '/groups', groupsRouter(ctx));
  mountSub(r, '/pages', pagesRouter(ctx));
  mountSub(r, '/sections', sectionsRouter(ctx));
  mountSub(r, '/recommendations', recommendationsRouter(ctx));
  return r;
}
