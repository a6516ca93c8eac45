/** Update and Delete act only for the object's owner or a server admin. */
import { canSee } from '@agora/common/audience';
import { NotAuthorized, NotFound } from '@agora/common/errors';
import type { HandlerContext } from '../../types';
import { storeOf, type Lean, type StoredKind } from './targets';
import { effectiveAudience, findObject } from '../../../access/objects';

/** Replies and reactions are seen with the object they answer (a reply's thread root). */
async function visibleTo(ctx: HandlerContext, kind: StoredKind, doc: Lean): Promise<boolean> {
  const { svc, viewer } = ctx;
  let addressed: { to?: string | null; actorId?: string | null; deletedAt?: Date | null } | null = doc;
  if (kind === 'reply' || kind === 'react') {
    const target = await findObject(svc, String(doc.target));
    addressed = target ? await effectiveAudience(svc, target) : null;
  }
  // A circle or group is also seen by its members, whatever its own audience.
  if (kind === 'circle' && viewer.circleIds.includes(doc.id)) return true;
  if (kind === 'group' && viewer.groupIds.includes(doc.id)) return true;
  return !!addressed && canSee(addressed, viewer, svc.config.DOMAIN);
}

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
  const store = storeOf(ctx.svc, kind);
  const doc = opts.includeDeleted ? await store.byId(id) : await store.liveById(id);
  if (!doc) throw new NotFound('Not found');
  const owns = (doc.actorId && doc.actorId === ctx.actor.id) || ctx.actor.isServerAdmin;
  if (!owns && !(await visibleTo(ctx, kind, doc))) throw new NotFound('Not found');
  assertOwnerOrAdmin(ctx, doc.actorId);
  return doc;
}
