/** Update and Delete act only for the object's owner or a server admin. */
import { NotAuthorized, NotFound } from '@agora/common';
import type { HandlerContext } from '../../types';
import { storeOf, type Lean, type StoredKind } from './targets';

export function assertOwnerOrAdmin(ctx: HandlerContext, ownerId: string | null | undefined): void {
  if ((ownerId && ownerId === ctx.actor.id) || ctx.actor.isServerAdmin) return;
  throw new NotAuthorized('Only the owner or a server admin can change this');
}

/** The stored object, 404 when missing (or deleted, unless asked), 403 when not the actor's. */
export async function loadForChange(
  ctx: HandlerContext,
  kind: StoredKind,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<Lean> {
  const store = storeOf(ctx.rt, kind);
  const doc = opts.includeDeleted ? await store.byId(id) : await store.liveById(id);
  if (!doc) throw new NotFound('Not found');
  assertOwnerOrAdmin(ctx, doc.actorId);
  return doc;
}
