/**
 * What an ordered list is stored as (ADR 0013): one row per (list, item) in `list_entries`, read
 * by keyset in the order of cursor.ts (time, then id), and one counter document per list in
 * `list_counts`. The row's key names the pair, so appending an item twice stores it once and a
 * removal is a primary-key delete.
 */
import type { CollectionSpec } from '../engine/port';

export interface ListEntryRow {
  /** `<item>|<list>` (`entryKey`). */
  _id: string;
  list: string;
  item: string;
  at: Date;
  /** Author (timelines skip authors who left the circle). */
  by?: string;
}

/**
 * A list's counters: live entries (`count`) and live entries by tag (audience tier, post type,
 * unread). They are counters, not a count over the rows, because an entry may stop counting while
 * it stays listed (a dismissed notification, a post whose deletion readers skip), tags are many
 * per row (counting them on rows would be a query into an array), and a count over the index
 * costs what the list holds while a page must cost the same at 100,000 entries as at 100.
 */
export interface ListCountRow {
  /** The list's key. */
  _id: string;
  count?: number;
  /** By tag; a dotted tag (`to.public`) is stored nested and read back flat (`flatTags`). */
  tags?: Record<string, unknown>;
}

export const LIST_ENTRIES: CollectionSpec = {
  name: 'list_entries',
  indexes: [
    {
      fields: [
        ['list', 1],
        ['at', -1],
        ['item', -1],
      ],
      serves:
        'a list read newest first (or oldest first, the index read backwards) from a keyset place; a list dropped',
    },
  ],
  dates: ['at'],
};

export const LIST_COUNTS: CollectionSpec = {
  name: 'list_counts',
  // Every read and write is by `_id` (the list's key).
  indexes: [],
};

/**
 * The key of a list's row for an item: item first, so the rows a new post adds to its ~10 lists
 * sit side by side in the primary key's index (one leaf, not ten: docs/performance.md). Never
 * parsed back: rows are read by their `list` and `item` fields. Rows stored under the former
 * `<list>|<item>` are moved by migration 0001 (ADR 0032).
 */
export const entryKey = (list: string, item: string): string => `${item}|${list}`;

/**
 * A tag name may hold dots (`to.public`, `type.Note`): `$inc` on `tags.to.public` stores it
 * nested (`tags: { to: { public: n } }`) on both engines, so the tags are read back flattened to
 * the names they were counted under.
 */
export function flatTags(
  tags: unknown,
  prefix = '',
  out: Record<string, number> = {},
): Record<string, number> {
  if (!tags || typeof tags !== 'object') return out;
  for (const [k, v] of Object.entries(tags as Record<string, unknown>)) {
    if (typeof v === 'number') out[`${prefix}${k}`] = v;
    else flatTags(v, `${prefix}${k}.`, out);
  }
  return out;
}
