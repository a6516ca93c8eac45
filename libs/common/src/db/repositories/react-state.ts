/** The reaction state kept on a reactable object (`reactCount`, `reactSummary`). */
import type { AnyModel } from './objects';

export interface ReactState {
  reactCount: number;
  reactSummary: Record<string, number>;
}

/**
 * Moves a target's reaction state: `delta` is {emoji: +1|-1}. Zero entries are dropped from
 * the summary; the state after is returned.
 */
export async function applyReactDelta(
  target: AnyModel,
  id: string,
  delta: Record<string, number>,
): Promise<ReactState> {
  const inc: Record<string, number> = {};
  let total = 0;
  for (const [emoji, d] of Object.entries(delta)) {
    if (!d) continue;
    inc[`reactSummary.${emoji}`] = d;
    total += d;
  }
  if (total) inc.reactCount = total;
  const after = Object.keys(inc).length
    ? await target
        .findOneAndUpdate({ _id: id }, { $inc: inc }, { returnDocument: 'after' })
        .lean<ReactState>()
    : await target.findOne({ _id: id }).lean<ReactState>();
  const summary = { ...(after?.reactSummary ?? {}) };
  const empty = Object.keys(summary).filter((k) => (summary[k] ?? 0) <= 0);
  let count = Math.max(0, after?.reactCount ?? 0);
  if (empty.length || (after?.reactCount ?? 0) < 0) {
    for (const k of empty) delete summary[k];
    count = Object.values(summary).reduce((s, n) => s + n, 0);
    // FerretDB 1.24 compares sub-documents by their values only, so `$set` of a summary over
    // one with the same values is skipped as "unchanged"; clearing the field first lands it.
    await target.updateOne({ _id: id }, { $unset: { reactSummary: '' } });
    await target.updateOne({ _id: id }, { $set: { reactSummary: sortSummary(summary), reactCount: count } });
  }
  return { reactCount: count, reactSummary: sortSummary(summary) };
}

/** Most used first, then by emoji: the order clients show. */
function sortSummary(s: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(s).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
