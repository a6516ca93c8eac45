/** /admin/system (spec 4.5): server figures and the admin/moderator role circles. */
import { Router, handler, mountSub, setAll, type Runtime } from '@agora/common';
import { roleRouter } from './roles';
import { systemStats } from './stats';

export function systemRouter(rt: Runtime): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ set }) => {
      setAll(set, await systemStats(rt));
    }),
  );
  mountSub(r, '/admins', roleRouter(rt, 'admins'));
  mountSub(r, '/mods', roleRouter(rt, 'mods'));
  return r;
}
