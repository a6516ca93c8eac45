/**
 * /admin/activities (spec 4.5, behaviour-notes §3.17): GET / only, the activity audit log newest
 * first. Relay bookkeeping (`events`, `published`) and client idempotency keys are internal and
 * are not shown.
 */
import { z } from 'zod';
import {
  Router,
  collectionFor,
  findPage,
  handler,
  parsePaging,
  setAll,
  stripSecrets,
  type Runtime,
  parseInput as parse,
} from '@agora/common';

const filterString = z.string().trim().min(1).max(300);

const listQuery = z.object({
  type: filterString.optional(),
  actorId: filterString.optional(),
  objectType: filterString.optional(),
});

const HIDDEN = { _id: 0, __v: 0, events: 0, published: 0, dedupeKey: 0 } as const;

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

export function activitiesRouter(rt: Runtime): Router {
  const r = Router();
  const { Activity } = rt.repos.models;

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(
        listQuery,
        { type: query.type, actorId: query.actorId, objectType: query.objectType },
        'query',
      );
      const filter: Row = {};
      if (q.type) filter.type = q.type;
      if (q.actorId) filter.actorId = q.actorId;
      if (q.objectType) filter.objectType = q.objectType;
      const paging = parsePaging(query);
      const { total, items } = await findPage<Row>(Activity, filter, paging, {
        sort: { createdAt: -1, _id: -1 },
        projection: HIDDEN,
      });
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items.map(present)));
    }),
  );
  return r;
}
