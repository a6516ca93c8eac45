/**
 * /admin/users (spec 4.5): list, detail, soft or hard delete, restore. No create or update:
 * users register themselves.
 */
import { z } from 'zod';
import {
  Conflict,
  NotFound,
  Router,
  collectionFor,
  findPage,
  handler,
  parsePaging,
  setAll,
  stripSecrets,
  type Runtime,
  idString,
  parseInput as parse,
} from '@agora/common';

const listQuery = z.object({
  deleted: z.enum(['true', 'include', 'false']).optional(),
  active: z.enum(['true', 'false']).optional(),
});

/** `deleted=true`: only soft-deleted; `include`: both; otherwise live only. */
export function deletedFilter(deleted: string | undefined): Record<string, unknown> {
  if (deleted === 'true') return { deletedAt: { $ne: null } };
  if (deleted === 'include') return {};
  return { deletedAt: null };
}

type Row = Record<string, unknown>;
const present = (u: Row) => stripSecrets(u);

export function usersRouter(rt: Runtime): Router {
  const r = Router();
  const { User } = rt.repos.models;

  const load = async (rawId: string | undefined) => {
    const id = parse(idString, rawId, 'id');
    const user = await User.findOne({ id }).lean<Row>();
    if (!user) throw new NotFound('User not found');
    return { id, user };
  };

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(listQuery, { deleted: query.deleted, active: query.active }, 'query');
      const filter: Row = deletedFilter(q.deleted);
      if (q.active) filter.active = q.active === 'true';
      const paging = parsePaging(query);
      const { total, items } = await findPage<Row>(User, filter, paging, { sort: { createdAt: -1 } });
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items.map(present)));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ params, set }) => {
      set('user', present((await load(params.id)).user));
    }),
  );

  r.delete(
    '/:id',
    handler(async ({ params, query, user: admin, set }) => {
      const { id, user } = await load(params.id);
      // An admin deleting their own account could leave the server without a usable admin.
      if (id === admin!.id) throw new Conflict('You cannot delete your own account here');
      if (query.fullDelete === 'true') {
        await User.deleteOne({ id });
        set('ok', true);
        set('hardDeleted', true);
        return;
      }
      if (user.deletedAt) throw new Conflict('User already deleted');
      await rt.repos.users.deactivate(id, admin!.id);
      set('ok', true);
      set('user', present((await User.findOne({ id }).lean<Row>()) ?? user));
    }),
  );

  r.post(
    '/:id/restore',
    handler(async ({ params, set }) => {
      const { id } = await load(params.id);
      await User.updateOne({ id }, { $set: { deletedAt: null, active: true, deletedBy: null } });
      const restored = await User.findOne({ id }).lean<Row>();
      set('ok', true);
      set('user', present(restored!));
    }),
  );
  return r;
}
