/**
 * Update (behaviour-notes §4.3, fixed): owner or server admin; the per-kind allow-lists of
 * update-patches.ts; timeline rows and react counts kept in step. User targets belong to the
 * users area (`updateUser`), since Update is one activity type with one registry entry.
 */
import { BadRequest, Conflict } from '@agora/common/errors';
import { DuplicateKeyError } from '@agora/common/db';
import type { ActivityHandler, HandlerContext } from '../../types';
import { clean, idString, parse } from '../../validate';
import { viewerFor } from '../../../access/viewer';
import { updateUser } from '../users/update';
import { KIND_MODELS, kindAmong, storeOf, type Lean, type StoredKind } from './targets';
import { loadForChange } from './owned';
import { PATCHERS } from './update-patches';
import { moveReaction } from './counters';
import { domainEvent } from '@agora/common/messaging';

const UPDATABLE = ['post', 'reply', 'react', 'circle', 'page', 'bookmark', 'group', 'user'] as const;

export const update: ActivityHandler = async (ctx) => {
  const { svc, actor } = ctx;
  // The client library updates the caller's own profile with `objectType: 'User'` and no target.
  const self = ctx.activity.target === undefined && ctx.activity.objectType === 'User';
  const targetId = self ? actor.id : parse(idString, ctx.activity.target, 'target');
  const kind = kindAmong(svc, targetId, UPDATABLE, 'target');
  if (kind === 'user') return updateUser(ctx, targetId);
  const patch = ctx.activity.object;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw new BadRequest('object: the fields to change are required');

  const doc = await loadForChange(ctx, kind, targetId);
  if (kind === 'post' && doc.shareOf)
    throw new BadRequest('target: a share cannot be edited (it quotes the original as it was)');
  const ownerId = String(doc.actorId);
  // An admin editing someone else's object may only give it an audience its author could use.
  const author = ownerId === actor.id ? ctx.viewer : await viewerFor(svc, { id: ownerId });
  const set = await PATCHERS[kind]({ ctx, doc, author }, patch);
  if (!Object.keys(set).length) throw new BadRequest('object: no field that can be changed was given');

  const updated = await write(ctx, kind, doc, set);
  const objectType = KIND_MODELS[kind];
  return {
    result: clean(updated),
    objectId: targetId,
    objectType,
    target: targetId,
    ...(typeof set.to === 'string' ? { to: set.to } : {}),
    events: [
      domainEvent(`${kind}.updated` as const, {
        objectId: targetId,
        objectType,
        actorId: actor.id,
        ownerId,
        fields: Object.keys(set),
        ...(kind === 'post' && typeof set.to === 'string' && set.to !== doc.to
          ? { previousTo: String(doc.to ?? '') }
          : {}),
      }),
    ],
  };
};

/** Writes the change through the kind's store, which keeps lists, stamps and counters in step. */
async function write(
  { svc }: HandlerContext,
  kind: StoredKind,
  doc: Lean,
  set: Record<string, unknown>,
): Promise<Lean | null> {
  switch (kind) {
    case 'post':
      return svc.stores.posts.update(doc.id, set);
    case 'circle':
      return svc.stores.circles.update(doc.id, set);
    case 'react': {
      const after = await storeOf(svc, kind).set(doc.id, set);
      if (set.emoji !== undefined && set.emoji !== doc.emoji)
        await moveReaction(svc, String(doc.target), { [String(doc.emoji)]: -1, [set.emoji as string]: 1 });
      return after;
    }
    case 'page':
      try {
        return await storeOf(svc, kind).set(doc.id, set);
      } catch (err) {
        // Another page took the slug since the patch checked it.
        if (err instanceof DuplicateKeyError) throw new Conflict('object.slug: already in use');
        throw err;
      }
    case 'reply':
    case 'bookmark':
    case 'group':
      return storeOf(svc, kind).set(doc.id, set);
  }
}
