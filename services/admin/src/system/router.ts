/** /admin/system (spec 4.5): server figures, the log tail and the admin/moderator role circles. */
import { Router, handler, setAll } from '@agora/common/http';
import type { AdminContext } from '../context';
import { roleRouter } from './roles';
import { systemStats } from './stats';
import { parseLogQuery, readLogTail } from './logs';

export function systemRouter(ctx: AdminContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ set }) => {
      setAll(set, await systemStats(ctx));
    }),
  );
  r.get(
    '/logs',
    handler(async ({ query, set }) => {
      setAll(set, await readLogTail(ctx, parseLogQuery(query)));
    }),
  );
  r.use('/admins', roleRouter(ctx, 'admins'));
  r.use('/mods', roleRouter(ctx, 'mods'));
  return r;
}
