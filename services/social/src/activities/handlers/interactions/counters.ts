/**
 * Denormalised counters (behaviour-notes §2.5): single-document atomic `$inc`, never below 0,
 * and the react state of a target recounted from the reacts collection after every change, so a
 * lost or doubled update cannot drift it.
 */
import { parseId, type Runtime } from '@agora/common';
import { KIND_MODELS, modelOf, type StoredKind } from './targets';
import { touchPost } from '../../../timelines/fanout';

type Counter = 'postCount' | 'publicPostCount' | 'replyCount' | 'reactCount';

export async function bumpUser(rt: Runtime, userId: string, field: Counter, by: 1 | -1): Promise<void> {
  await bump(rt.repos.models.User as never, userId, field, by);
}

/** Moves a counter of any stored object (by its id's kind) one step. */
export async function bumpObject(rt: Runtime, id: string, field: 'replyCount', by: 1 | -1): Promise<void> {
  const kind = kindOfId(id);
  if (!kind) return;
  await bump(modelOf(rt, kind), id, field, by);
  // Timelines show a post's counters: cached pages holding it are stale.
  if (kind === 'post') await touchPost(rt, id);
}

async function bump(
  model: { updateOne(filter: object, update: object): Promise<unknown> },
  id: string,
  field: string,
  by: 1 | -1,
): Promise<void> {
  if (by > 0) await model.updateOne({ id }, { $inc: { [field]: 1 } });
  // The `$gt: 0` guard makes the decrement a no-op at zero, atomically.
  else await model.updateOne({ id, [field]: { $gt: 0 } }, { $inc: { [field]: -1 } });
}

export interface ReactState {
  reactCount: number;
  reactSummary: Record<string, number>;
}

/** Recounts a target's reactions and stores `reactCount` and `reactSummary` ({emoji: count}). */
export async function recountReacts(rt: Runtime, targetId: string): Promise<ReactState> {
  const rows = await rt.repos.models.React.aggregate<{ _id: string; n: number }>([
    { $match: { target: targetId } },
    { $group: { _id: '$emoji', n: { $sum: 1 } } },
  ]);
  rows.sort((a, b) => b.n - a.n || a._id.localeCompare(b._id));
  const reactSummary: Record<string, number> = {};
  for (const r of rows) reactSummary[r._id] = r.n;
  const state = { reactCount: rows.reduce((s, r) => s + r.n, 0), reactSummary };
  const kind = kindOfId(targetId);
  if (kind && kind !== 'react') {
    const model = modelOf(rt, kind);
    // FerretDB 1.24 compares sub-documents by their values only, so `$set` of {'🎉': 1} over
    // {'👍': 1} is skipped as "unchanged"; clearing the field first makes the write land.
    await model.updateOne({ id: targetId }, { $unset: { reactSummary: '' } });
    await model.updateOne({ id: targetId }, { $set: state });
    if (kind === 'post') await touchPost(rt, targetId);
  }
  return state;
}

function kindOfId(id: string): StoredKind | undefined {
  const p = parseId(id);
  return p.type === 'Object' && p.kind && Object.hasOwn(KIND_MODELS, p.kind)
    ? (p.kind as StoredKind)
    : undefined;
}
