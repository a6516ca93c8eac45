/**
 * /admin/users (spec 4.5): list, detail, soft or hard delete, restore. No create or update:
 * users register themselves. Deletes and restores go through the users store (which moves the
 * read-cache stamps) and are recorded with their events like every other write. A soft delete is
 * reversible (the spec's restore reactivates the user): a suspension (ADR 0028). The account
 * cannot log in, its unattached files close, its content stays for the restore but no one else
 * reads it meanwhile (the social read paths skip suspended accounts), and peers are told of a
 * suspension (an Update of the actor), never a deletion. A full delete is not reversible: it
 * withdraws what the account wrote first, as the owner's own delete does (docs/security.md,
 * "Deleted accounts"), so no content outlives its author, and peers get the Delete of the actor.
 */
import { z } from 'zod';
import { Conflict, NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import { stripSecrets } from '@agora/common/db';
import { withdrawAccount } from '@agora/common/cache';
import { domainEvent } from '@agora/common/messaging';
import type { AdminContext } from '../context';
import { idString, parseInput as parse } from '@agora/common/validation';
import { recordAdminWrite } from '../record';

export const listQuery = z.object({
  deleted: z.enum(['true', 'include', 'false']).optional(),
  active: z.enum(['true', 'false']).optional(),
});

type Row = Record<string, unknown>;
const present = (u: object) => stripSecrets(u as Row);

export function usersRouter(ctx: AdminContext): Router {
  const r = Router();
  const users = ctx.stores.users;

  const load = async (rawId: string | undefined) => {
    const id = parse(idString, rawId, 'id');
    const user = await users.findById(id);
    if (!user) throw new NotFound('User not found');
    return { id, user };
  };

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(listQuery, { deleted: query.deleted, active: query.active }, 'query');
      const paging = parsePaging(query);
      const { total, items } = await users.pageForAdmin(
        {
          ...(q.deleted ? { deleted: q.deleted } : {}),
          ...(q.active ? { active: q.active === 'true' } : {}),
        },
        paging,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items.map(present)));
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
        // Before the record goes: the content would otherwise outlive its author.
        await withdrawAccount(ctx, id, admin!.id);
        if (await users.remove(id))
          await recordAdminWrite(
            ctx,
            admin!.id,
            { type: 'Delete', objectType: 'User', objectId: id, object: { id, hardDeleted: true } },
            [domainEvent('user.deleted', { userId: id, actorId: admin!.id, hard: true })],
          );
        set('ok', true);
        set('hardDeleted', true);
        return;
      }
      if (user.deletedAt) throw new Conflict('User already deleted');
      // Only the request that deleted it records the deletion (concurrent deletes: one event).
      if (await users.deactivate(id, admin!.id, { suspension: true })) {
        await recordAdminWrite(ctx, admin!.id, { type: 'Delete', objectType: 'User', objectId: id }, [
          domainEvent('user.deleted', { userId: id, actorId: admin!.id, suspension: true }),
        ]);
      }
      set('ok', true);
      set('user', present((await users.findById(id)) ?? user));
    }),
  );

  r.post(
    '/:id/restore',
    handler(async ({ params, user: admin, set }) => {
      const { id } = await load(params.id);
      const out = await users.restoreAccount(id);
      if (!out) throw new NotFound('User not found');
      if (out.restored)
        await recordAdminWrite(ctx, admin!.id, { type: 'Restore', objectType: 'User', objectId: id }, [
          domainEvent('user.restored', { userId: id, actorId: admin!.id }),
        ]);
      set('ok', true);
      set('user', present(out.user));
    }),
  );
  return r;
}
