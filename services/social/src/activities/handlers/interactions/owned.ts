/** Update and Delete act only for the object's owner or a server admin. */
import { NotAuthorized, NotFound, canSee } from '@agora/common';
import type { HandlerContext } from '../../types';
import { modelOf, type Lean, type StoredKind } from './targets';

export function assertOwnerOrAdmin(ctx: HandlerContext, ownerId: string | null | undefined): void {
  if ((ownerId && ownerId === ctx.actor.id) || ctx.actor.isServerAdmin) return;
  throw new NotAuthorized('Only the owner or a server admin can change this');
}

/**
 * The stored object, 404 when missing (or deleted, unless asked); 403 when not the actor's but
 * visible to them, and the same 404 as missing when they may not even see it (no oracle).
 */
export async function loadForChange(
  ctx: HandlerContext,
  kind: StoredKind,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<Lean> {
  const doc = await modelOf(ctx.rt, kind)
    .findOne(opts.includeDeleted ? { id } : { id, deletedAt: null })
    .lean();
  if (!doc) throw new NotFound('Not found');
  const owns = (doc.actorId && doc.actorId === ctx.actor.id) || ctx.actor.isServerAdmin;
  if (!owns && !canSee(doc, ctx.viewer, ctx.rt.config.DOMAIN)) throw new NotFound('Not found');
  assertOwnerOrAdmin(ctx, doc.actorId);
  return doc;
}
