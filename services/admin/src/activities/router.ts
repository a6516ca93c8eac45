/**
 * /admin/activities (spec 4.5, behaviour-notes §3.17): GET / only, the activity audit log newest
 * first. Relay bookkeeping (`events`, `published`) and client idempotency keys are internal and
 * are not shown.
 */
import { z } from 'zod';
import { stripSecrets } from '@agora/common/db';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { AdminContext } from '../context';
import { parseInput as parse } from '@agora/common/validation';

const filterString = z.string().trim().min(1).max(300);

export const listQuery = z.object({
  type: filterString.optional(),
  actorId: filterString.optional(),
  objectType: filterString.optional(),
});

type Row = Record<string, unknown>;

/**
 * The log is written without secrets, but `object` is a free-form payload: drop any secret field
 * from it anyway, so a mistake elsewhere cannot leak through this route.
 */
function present(a: Row): Row {
  const object = a.object;
  if (!object || typeof object !== 'object' || Array.isArray(object)) return a;
  return { ...a, object: stripSecrets(object as Row) };
}

export function activitiesRouter(ctx: AdminContext): Router {
  const r = Router();

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(
        listQuery,
        { type: query.type, actorId: query.actorId, objectType: query.objectType },
        'query',
      );
      const paging = parsePaging(query);
      const { total, items } = await ctx.stores.activities.pageForAdmin(
        {
          ...(q.type ? { type: q.type } : {}),
          ...(q.actorId ? { actorId: q.actorId } : {}),
          ...(q.objectType ? { objectType: q.objectType } : {}),
        },
        paging,
      );
      setAll(
        set,
        collectionFor(
          ctx.config.publicUrl,
          req,
          paging,
          total,
          items.map((a) => present(a as unknown as Row)),
        ),
      );
    }),
  );
  return r;
}
