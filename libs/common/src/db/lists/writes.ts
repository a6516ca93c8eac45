/** Head and bucket writes and reads of ListStore that need no store state. */
import type { AnyModel } from '../repositories/objects';
import type { HeadRow } from './ranges';
import type { ListHead } from './store';

export type BulkOp = {
  updateOne: { filter: Record<string, unknown>; update: Record<string, unknown>; upsert: boolean };
};

/**
 * Runs a bulk of `_id`-keyed upserts, then runs again those of them that lost the race to insert
 * their `_id` (E11000). MongoDB 4.2+ retries such an upsert itself; FerretDB answers the loser
 * with E11000 and applies none of it, so the second run (now an update) is safe; only the failed
 * operations run again, so the others' increments are not applied twice. Without it two appends
 * creating one list at once (two events for one recipient, handled side by side) fail one of
 * them, and a bucket upsert failing after the head counted its entries would count them twice on
 * redelivery.
 */
export async function bulkWriteRetryingLostUpserts(model: AnyModel, ops: BulkOp[]): Promise<void> {
  try {
    await model.bulkWrite(ops, { ordered: false });
  } catch (err) {
    const raw = (err as { writeErrors?: unknown }).writeErrors;
    const errors = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ index: number; code?: number }>;
    if (!errors.length || errors.some((e) => e.code !== 11000)) throw err;
    await model.bulkWrite(
      errors.map((e) => ops[e.index]!),
      { ordered: false },
    );
  }
}

export function headOf(h: HeadRow | null | undefined): ListHead {
  return { count: Math.max(0, h?.count ?? 0), tags: flatTags(h?.tags) };
}

/**
 * A tag name may hold dots (`to.public`, `type.Note`): `$inc` on `tags.to.public` stores it
 * nested (`tags: { to: { public: n } }`) on MongoDB and FerretDB alike, so the head's tags are
 * read back flattened to the names they were counted under.
 */
function flatTags(tags: unknown, prefix = '', out: Record<string, number> = {}): Record<string, number> {
  if (!tags || typeof tags !== 'object') return out;
  for (const [k, v] of Object.entries(tags as Record<string, unknown>)) {
    if (typeof v === 'number') out[`${prefix}${k}`] = v;
    else flatTags(v, `${prefix}${k}.`, out);
  }
  return out;
}
