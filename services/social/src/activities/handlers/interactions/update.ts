/**
 * Update (behaviour-notes §4.3, fixed): owner or server admin; the per-kind allow-lists of
 * update-patches.ts; timeline rows and react counts kept in step. User targets belong to the
 * users area (`updateUser`), since Update is one activity type with one registry entry.
 */
import { BadRequest, buildViewer } from '@agora/common';
import type { ActivityHandler, HandlerContext } from '../../types';
import { clean, idString, parse } from '../../validate';
import { refreshPost, touchCircle } from '../../../timelines/fanout';
import { updateUser } from '../users/update';
import { KIND_MODELS, kindAmong, modelOf, type Lean, type StoredKind } from './targets';
import { loadForChange } from './owned';
import { PATCHERS } from './update-patches';
import { bumpUser, recountReacts } from './counters';

const UPDATABLE = ['post', 'reply', 'react', 'circle', 'page', 'bookmark', 'group', 'user'] as const;

export const update: ActivityHandler = async (ctx) => {
  const { rt, actor } = ctx;
  const targetId = parse(idString, ctx.activity.target, 'target');
  const kind = kindAmong(rt, targetId, UPDATABLE, 'target');
  if (kind === 'user') return updateUser(ctx, targetId);
  const patch = ctx.activity.object;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw new BadRequest('object: the fields to change are required');

  const doc = await loadForChange(ctx, kind, targetId);
  const ownerId = String(doc.actorId);
  // An admin editing someone else's object may only give it an audience its author could use.
  const author =
    ownerId === actor.id ? ctx.viewer : await buildViewer(rt.repos.models, rt.config.DOMAIN, { id: ownerId });
  const set = await PATCHERS[kind]({ ctx, doc, author }, patch);
  if (!Object.keys(set).length) throw new BadRequest('object: no field that can be changed was given');

  const model = modelOf(rt, kind);
  await model.updateOne({ id: targetId }, { $set: set });
  await afterUpdate(ctx, kind, doc, set);
  const updated = await model.findOne({ id: targetId }).lean();
  const objectType = KIND_MODELS[kind];
  return {
    result: clean(updated),
    objectId: targetId,
    objectType,
    target: targetId,
    ...(typeof set.to === 'string' ? { to: set.to } : {}),
    events: [
      {
        name: `${kind}.updated`,
        payload: { objectId: targetId, objectType, actorId: actor.id, ownerId, fields: Object.keys(set) },
      },
    ],
  };
};

async function afterUpdate(
  { rt }: HandlerContext,
  kind: StoredKind,
  doc: Lean,
  set: Record<string, unknown>,
): Promise<void> {
  // Timeline rows carry the post's `to` and `type` (the audience and `types` filters).
  if (kind === 'post') await refreshPost(rt, doc.id, set);
  // Others see only the count of public posts: keep it in step when the audience changes.
  if (kind === 'post' && typeof set.to === 'string' && (set.to === '@public') !== (doc.to === '@public'))
    await bumpUser(rt, String(doc.actorId), 'publicPostCount', set.to === '@public' ? 1 : -1);
  if (kind === 'circle') await touchCircle(rt, doc.id, membersOf(doc));
  if (kind === 'react' && set.emoji !== undefined) await recountReacts(rt, String(doc.target));
}

function membersOf(doc: Lean): string[] {
  const members = (doc as { members?: Array<{ id?: unknown }> }).members ?? [];
  return members.map((m) => String(m.id));
}
