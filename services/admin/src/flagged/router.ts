/**
 * /admin/flagged (spec 4.5, behaviour-notes §3.17): the moderation queue. Flags are created by
 * users through POST /outbox (type Flag); admins list, read and close them here. There is no
 * create or delete.
 */
import { z } from 'zod';
import { BadRequest, Conflict, NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { AdminContext } from '../context';
import { idString, parseInput as parse } from '@agora/common/validation';

const filterString = z.string().trim().min(1).max(300);

export const listQuery = z.object({
  status: z.enum(['open', 'resolved', 'dismissed', 'all']).default('open'),
  targetType: filterString.optional(),
  actorId: filterString.optional(),
});

export const closeBody = z.object({
  status: z.enum(['resolved', 'dismissed']),
  notes: z.string().max(2000).optional(),
});

/** Internal storage fields never leave the service. */
const present = ({ _id, __v, ...rest }: Row) => rest;

type Row = Record<string, unknown>;

export function flaggedRouter(ctx: AdminContext): Router {
  const r = Router();
  const flags = ctx.stores.flags;

  const load = async (rawId: string | undefined) => {
    const id = parse(idString, rawId, 'id');
    const flag = await flags.byId(id);
    if (!flag) throw new NotFound('Flag not found');
    return { id, flag: present(flag) };
  };

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(
        listQuery,
        { status: query.status, targetType: query.targetType, actorId: query.actorId },
        'query',
      );
      const paging = parsePaging(query);
      const { total, items } = await flags.pageForAdmin(
        {
          ...(q.status !== 'all' ? { status: q.status } : {}),
          ...(q.targetType ? { targetType: q.targetType } : {}),
          ...(q.actorId ? { actorId: q.actorId } : {}),
        },
        paging,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items.map(present)));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ params, set }) => {
      set('flag', (await load(params.id)).flag);
    }),
  );

  r.patch(
    '/:id',
    handler(async ({ params, body, user: admin, set }) => {
      const { id } = await load(params.id);
      const status = body.status;
      // The notes' wording for this case, rather than zod's generic enum message.
      if (status !== 'resolved' && status !== 'dismissed')
        throw new BadRequest("status: must be 'resolved' or 'dismissed'");
      const input = parse(closeBody, body);
      // Conditional update: of two admins closing the same flag at once, only one wins.
      const closed = await flags.close(id, {
        status: input.status,
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        resolvedBy: admin!.id,
      });
      const { flag: updated } = await load(id);
      if (!closed) throw new Conflict(`Flag is already ${String(updated.status)}`);
      set('ok', true);
      set('flag', updated);
    }),
  );
  return r;
}
