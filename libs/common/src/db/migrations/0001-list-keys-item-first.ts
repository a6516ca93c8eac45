/**
 * 0001: `list_entries` rows keyed item-first (`<item>|<list>`, lists/collections.ts `entryKey`).
 * A new post's fan-out rows (one per list it joins) then sit next to one another in the primary
 * key's index instead of on ~10 leaves (docs/performance.md, issue 22).
 *
 * Every row whose `_id` is not `entryKey(list, item)` gets a row under the new key (skipped when
 * held), then loses its old one. A crash between the two leaves both rows: the rerun finds the
 * new key held by the same pair and deletes the old. Counters (`list_counts`) are per list and
 * do not move. One batch of `scan` at a time; rows under the new key come later in `_id` order
 * or earlier, and are left alone either way.
 */
import { entryKey, LIST_ENTRIES, type ListEntryRow } from '../lists/collections';
import type { Engine } from '../engine/port';
import type { Migration, MigrationLog } from './migration';

/** The migration's work; `batch` rows are read at a time. */
export async function moveListKeys(engine: Engine, log: MigrationLog, batch = 500): Promise<void> {
  const rows = engine.collection<ListEntryRow>(LIST_ENTRIES);
  let moved = 0;
  let blocked = 0;
  for await (const page of rows.scan(batch)) {
    const old = page.filter((r) => r._id !== entryKey(r.list, r.item));
    if (!old.length) continue;
    const stored = await rows.insertEach(old.map((r) => ({ ...r, _id: entryKey(r.list, r.item) })));
    // A new key already held: by the same pair (a rerun after a crash, or a newer process appended
    // it), or, were a list key ever an item id, by another pair's old row: then this row stays.
    const held = old.filter((_, i) => !stored[i]).map((r) => entryKey(r.list, r.item));
    const holders = new Map(
      held.length ? (await rows.find({ _id: { $in: held } })).map((h) => [h._id, h] as const) : [],
    );
    const gone = old.filter((r, i) => {
      if (stored[i]) return true;
      const h = holders.get(entryKey(r.list, r.item));
      return h?.list === r.list && h.item === r.item;
    });
    blocked += old.length - gone.length;
    if (gone.length) await rows.deleteMany({ _id: { $in: gone.map((r) => r._id) } });
    moved += gone.length;
  }
  log.info({ moved }, 'migration 0001: list entries keyed item-first');
  if (blocked)
    log.warn({ blocked }, 'migration 0001: rows whose new key another pair holds stayed under the old key');
}

export const listKeysItemFirst: Migration = {
  id: '0001-list-keys-item-first',
  run: (engine, log) => moveListKeys(engine, log),
};
