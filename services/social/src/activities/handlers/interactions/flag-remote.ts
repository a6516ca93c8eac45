/**
 * A Flag of another server's object (docs/federation.md, "Flag forwarding"): allowed when this
 * server holds what is flagged and the flagger may see it: a copy of a remote post (or any object
 * kind whose copies are kept), or a remote user this server holds posts of. `forward: true` asks
 * for the flag to go to the object's server too (the federation planner sends it).
 */
import { parseId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { HandlerContext } from '../../types';
import { readableObject } from '../../../access/objects';
import { KIND_MODELS, type StoredKind } from './targets';

const FLAGGABLE_COPIES = ['post', 'reply', 'page', 'bookmark', 'group'] as const;

export function isRemote(ctx: HandlerContext, id: string): boolean {
  const domain = parseId(id).domain;
  return !!domain && domain !== ctx.svc.config.DOMAIN.toLowerCase();
}

/** `forward`: absent, true or false (400 otherwise). */
export function parseForward(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== 'boolean') throw new BadRequest('forward: must be true or false');
  return raw;
}

export async function remoteTarget(
  ctx: HandlerContext,
  id: string,
): Promise<{ targetType: string; targetActorId: string | null }> {
  const p = parseId(id);
  if (p.type === 'User') {
    // A remote account is known here through its posts (their copies).
    if (!(await ctx.svc.stores.posts.allByAuthor(id)).length) throw new NotFound('User not found');
    return { targetType: 'User', targetActorId: id };
  }
  const kind = p.type === 'Object' ? p.kind : undefined;
  if (!kind || !(FLAGGABLE_COPIES as readonly string[]).includes(kind))
    throw new BadRequest(`target: must be the id of a ${FLAGGABLE_COPIES.join(', ')} or user`);
  const found = await readableObject(ctx.svc, ctx.viewer, id);
  return { targetType: KIND_MODELS[kind as StoredKind], targetActorId: found.doc.actorId ?? null };
}
