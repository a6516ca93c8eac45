/** /admin/system (spec 4.5): server figures, the log tail and the admin/moderator role circles. */
import { Router, handler, mountSub, setAll } from '@agora/common/http';
import type { Runtime } from '@agora/common/runtime';
import { roleRouter } from './roles';
import { systemStats } from './stats';
import { parseLogQuery, readLogTail } from './logs';

export function systemRouter(rt: Runtime): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ set }) => {
      setAll(set, await systemStats(rt));
    }),
  );
  r.get(
    '/logs',
    handler(async ({ query, set }) => {
      setAll(set, await readLogTail(rt, parseLogQuery(query)));
    }),
  );
  mountSub(r, '/admins', roleRouter(rt, 'admins'));
  mountSub(r, '/mods', roleRouter(rt, 'mods'));
  return r;
}
