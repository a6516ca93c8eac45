/**
 * Ordered lists (ADR 0013): timelines, the public post lists, an author's posts, a group's posts,
 * threads, followers and notifications. A list is the rows of `list_entries` with its key, read
 * by keyset on the index `(list, at, item)` newest or oldest first, and a counter document in
 * `list_counts` (collections.ts says why a counter and not a count). Entries are never edited in
 * place: a reader checks each one against the live object (deleted, no longer visible, author
 * left the circle) and skips it; the stores that delete move the counters.
 *
 * Order of writes (no transaction spans the two collections): an append inserts the row, then
 * counts it only if this insert stored it; a removal deletes the row, then uncounts it only if
 * this delete removed it. So a retried or concurrent append or removal counts once, and a crash
 * between the two writes leaves a counter one short of the rows for that entry, never one over
 * (the totals shown are clamped at zero).
 */
import type { Collection, Engine } from '../engine/port';
import {
  entryKey,
  flatTags,
  LIST_COUNTS,
  LIST_ENTRIES,
  type ListCountRow,
  type ListEntryRow,
} from './collections';
import type { Place } from './cursor';
import { mergedRead, type ListEntry } from './read';

export type { ListEntry } from './read';

/** Entries for one list, counted under `tags` (audience tier, post type). */
export interface ListAppend {
  key: string;
  entries: ListEntry[];
  tags?: string[];
}

/** Lists opened for a page: their counters (in the order asked) and their entries newest first. */
export interface OpenedLists {
  heads: ListHead[];
  entries: AsyncGenerator<ListEntry>;
}

export interface ListHead {
  count: number;
  tags: Record<string, number>;
}

export class ListStore {
  private readonly rows: Collection<ListEntryRow>;
  private readonly counts: Collection<ListCountRow>;

  constructor(engine: Engine) {
    this.rows = engine.collection<ListEntryRow>(LIST_ENTRIES);
    this.counts = engine.collection<ListCountRow>(LIST_COUNTS);
  }

  /** Appends entries (tags count them too: audience tier, post type). */
  async append(key: string, entries: ListEntry[], tags: string[] = []): Promise<void> {
    await this.appendAll([{ key, entries, tags }]);
  }

  /**
   * Appends to several lists at once (a new post goes to its author's, its tier's and every
   * circle's list; a new member's backfill): every (list, entry) row in one `insertEach`, then
   * one counter update per list for what was stored, in one `updateEach` (on SQLite, two
   * transactions however many lists). An entry the list already holds is not stored or counted
   * again. Resolves when every entry is stored and counted.
   */
  async appendAll(appends: ListAppend[]): Promise<void> {
    const rows: Array<{ key: string; tags: string[]; row: ListEntryRow }> = [];
    for (const { key, entries, tags = [] } of appends)
      for (const e of entries)
        rows.push({
          key,
          tags,
          row: { _id: entryKey(key, e.id), list: key, item: e.id, at: e.at, ...(e.by ? { by: e.by } : {}) },
        });
    if (!rows.length) return;
    const stored = await this.rows.insertEach(rows.map((r) => r.row));
    const moves = new Map<string, Record<string, number>>();
    rows.forEach(({ key, tags }, i) => {
      if (!stored[i]) return;
      const inc = moves.get(key) ?? {};
      moves.set(key, inc);
      for (const f of ['count', ...tags.map((t) => `tags.${t}`)]) inc[f] = (inc[f] ?? 0) + 1;
    });
    if (moves.size)
      await this.counts.updateEach(
        [...moves].map(([key, inc]) => ({ filter: { _id: key }, update: { $inc: inc }, upsert: true })),
      );
  }

  /** Moves a list's counters down by `by` (its tags too). */
  private async move(key: string, by: number, tags: string[]): Promise<void> {
    const inc: Record<string, number> = { count: by };
    for (const t of tags) inc[`tags.${t}`] = (inc[`tags.${t}`] ?? 0) + by;
    await this.counts.updateOne({ _id: key }, { $inc: inc });
  }

  /**
   * Takes one entry out (a deleted post leaves its lists); the counters move only when this call
   * removed it. `at` is not needed any more (the row's key names it); kept for callers that have it.
   */
  async remove(key: string, id: string, _at?: Date, tags: string[] = []): Promise<boolean> {
    const removed = (await this.rows.deleteOne({ _id: entryKey(key, id) })) === 1;
    if (removed) await this.move(key, -1, tags);
    return removed;
  }

  /** Whether the list holds this entry (a primary-key read; `at` is not needed). */
  async holds(key: string, id: string, _at?: Date): Promise<boolean> {
    return (await this.rows.findOne({ _id: entryKey(key, id) })) !== null;
  }

  /** Moves the live counters after an entry stopped counting (deleted, moved out) but stays listed. */
  async uncount(key: string, tags: string[] = [], by = 1): Promise<void> {
    await this.move(key, -by, tags);
  }

  /**
   * Moves tag counters of entries that stay listed but changed state (a notification read or
   * marked unread): `{ tag: +1 | -1 }`. The live count does not move.
   */
  async retag(key: string, delta: Record<string, number>): Promise<void> {
    const inc = Object.fromEntries(Object.entries(delta).map(([t, by]) => [`tags.${t}`, by]));
    if (Object.keys(inc).length) await this.counts.updateOne({ _id: key }, { $inc: inc }, { upsert: true });
  }

  async head(key: string): Promise<ListHead> {
    return headOf(await this.counts.findOne({ _id: key }));
  }

  /** Removes a list: its rows (one indexed delete), then its counters. */
  async drop(key: string): Promise<void> {
    await this.rows.deleteMany({ list: key });
    await this.counts.deleteOne({ _id: key });
  }

  /**
   * Entries of the lists merged newest first (cursor.ts's order: time, then id), strictly after
   * the place `before` when given. The same id in two lists comes once. Iterate and stop when the
   * page is full: only the pages read so far were read.
   */
  newest(keys: string[], opts: { before?: Place } = {}): AsyncGenerator<ListEntry> {
    return mergedRead(this.rows, keys, 'newest', opts.before).entries;
  }

  /** A list's entries oldest first (a thread page), read from its start. */
  oldest(key: string): AsyncGenerator<ListEntry> {
    return mergedRead(this.rows, [key], 'oldest').entries;
  }

  /**
   * Opens lists for a page: their counters (for the page's total) and the first page of each
   * list's entries read together, so a caller can do other reads (the viewer, the circle) while
   * they land. `entries` yields as `newest` does.
   */
  async open(keys: string[], opts: { before?: Place } = {}): Promise<OpenedLists> {
    const read = mergedRead(this.rows, keys, 'newest', opts.before);
    const first = read.start();
    first.catch(() => undefined); // awaited again by `entries`, or dropped when the caller fails first
    const heads = await Promise.all(keys.map((k) => this.head(k)));
    return { heads, entries: read.entries };
  }
}

function headOf(h: ListCountRow | null): ListHead {
  return { count: Math.max(0, h?.count ?? 0), tags: flatTags(h?.tags) };
}
