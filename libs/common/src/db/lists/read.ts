/**
 * Reading lists by keyset (ADR 0013): each list is read a page at a time from the index
 * `(list, at, item)`, strictly after the last row read, so a page costs what it holds whatever
 * the list's length; several lists are merged in memory (one indexed read per list, never an
 * `$in` that an engine would have to sort).
 */
import type { Collection, Scalar, Sort } from '../engine/port';
import type { ListEntryRow } from './collections';
import { newestFirst, oldestFirst, type Place } from './cursor';

export interface ListEntry {
  /** The listed object's id. */
  id: string;
  at: Date;
  /** Author (timelines skip authors who left the circle or whom the viewer blocks). */
  by?: string;
}

/** Rows per read: small for the first page (most reads stop there), growing for long walks. */
const FIRST_READ = 32;
const MAX_READ = 512;

export type Direction = 'newest' | 'oldest';

const SORTS: Record<Direction, Sort> = {
  newest: [
    ['at', -1],
    ['item', -1],
  ],
  oldest: [
    ['at', 1],
    ['item', 1],
  ],
};

function entryOf(r: ListEntryRow): ListEntry {
  return { id: r.item, at: r.at, ...(r.by ? { by: r.by } : {}) };
}

/** One list read in one direction, a page at a time; `fill` is safe to call while one runs. */
class ListReader {
  readonly buf: ListEntry[] = [];
  private done = false;
  private after: Scalar[] | undefined;
  private size = FIRST_READ;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly rows: Collection<ListEntryRow>,
    private readonly list: string,
    private readonly dir: Direction,
    from?: Place,
  ) {
    // `id: ''` (an ISO time as `before`) sorts before every id, so the keyset is "older than at".
    if (from) this.after = [new Date(from.at), from.id];
  }

  /** Reads the next page when the buffer is empty (and the list not exhausted). */
  fill(): Promise<void> {
    if (this.buf.length || this.done) return Promise.resolve();
    this.pending ??= this.read().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async read(): Promise<void> {
    const limit = this.size;
    const rows = await this.rows.find(
      { list: this.list },
      { sort: SORTS[this.dir], limit, ...(this.after ? { after: this.after } : {}) },
    );
    this.size = Math.min(MAX_READ, this.size * 2);
    if (rows.length < limit) this.done = true;
    const last = rows[rows.length - 1];
    if (last) this.after = [last.at, last.item];
    this.buf.push(...rows.map(entryOf));
  }
}

/**
 * Lists read and merged in one direction, from a place (exclusive) when given. The same id in two
 * lists comes once, at its first place. `start` begins the first reads at once (a caller does
 * other reads while they land); the returned generator yields entries in order.
 */
export function mergedRead(
  rows: Collection<ListEntryRow>,
  lists: readonly string[],
  dir: Direction,
  from?: Place,
): { start: () => Promise<void>; entries: AsyncGenerator<ListEntry> } {
  const readers = lists.map((l) => new ListReader(rows, l, dir, from));
  const start = async () => {
    await Promise.all(readers.map((r) => r.fill()));
  };
  const order = dir === 'newest' ? newestFirst : oldestFirst;
  async function* entries(): AsyncGenerator<ListEntry> {
    const seen = new Set<string>();
    for (;;) {
      await start();
      let best: ListReader | undefined;
      for (const r of readers) if (r.buf.length && (!best || order(r.buf[0]!, best.buf[0]!) < 0)) best = r;
      const e = best?.buf.shift();
      if (!e) return;
      if (readers.length > 1) {
        if (seen.has(e.id)) continue;
        seen.add(e.id);
      }
      yield e;
    }
  }
  return { start, entries: entries() };
}
