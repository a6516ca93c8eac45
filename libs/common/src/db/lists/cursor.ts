/**
 * Where a reader stands in a list, and the one order lists are read in (issue 21 item 4). A
 * place is an entry's time (ms) and its id: many entries share a millisecond (two replicas
 * writing at once, a backfill), none shares both, so "strictly after the last place read" neither
 * skips an entry that shares its millisecond with the last one nor shows it twice. A bare time
 * did both: of 192 posts, one that shared its millisecond with the last of a page never appeared.
 *
 * Clients get the place as an opaque cursor, base64url of `<ms>.<id>`, and hand it back as
 * `before`; an ISO 8601 time is still accepted there (the cursors served before), meaning
 * "everything strictly older than that time". The stores call only this module for the order, the
 * comparison and the codec, so the engine port (issue 22) carries one definition of each.
 */
import { BadRequest } from '../../errors';

/** A place in a list: an entry's time and id. `id: ''` stands before every id of its millisecond. */
export interface Place {
  at: number;
  id: string;
}

/** Something with a place (a list entry holds a Date, a decoded cursor a number). */
export type Placed = { at: Date | number; id: string };

const ms = (at: Date | number): number => (typeof at === 'number' ? at : at.getTime());

/**
 * Ids in code point order, which is the byte order of their UTF-8 form: the order MongoDB gives
 * strings under the simple collation and SQLite under BINARY, so a query on either engine and a
 * walk in memory agree. (JavaScript's `<` compares UTF-16 code units and puts U+E000–U+FFFF
 * after every code point above U+FFFF.)
 */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    // A surrogate encodes a code point above U+FFFF: after every other code unit.
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Newest first: the later time first; in one millisecond, the greater id first. */
export function newestFirst(a: Placed, b: Placed): number {
  return ms(b.at) - ms(a.at) || compareIds(b.id, a.id);
}

/** Oldest first: the exact reverse of `newestFirst` (a thread). */
export function oldestFirst(a: Placed, b: Placed): number {
  return ms(a.at) - ms(b.at) || compareIds(a.id, b.id);
}

/** Whether `e` comes strictly after `cursor` in a newest-first read: older, or as old with a smaller id. */
export function isOlder(e: Placed, cursor: Place): boolean {
  return newestFirst(cursor, e) < 0;
}

/** The latest time a Date holds. */
const MAX_MS = 8.64e15;
/** Longest cursor taken: an id of 2,048 characters and more (list ids are object ids and URLs). */
const MAX_CURSOR = 4096;

/** The opaque cursor of a place. */
export function encodeCursor(p: Place): string {
  return Buffer.from(`${p.at}.${p.id}`, 'utf8').toString('base64url');
}

/** The place a cursor names; undefined for anything `encodeCursor` cannot have made. */
export function decodeCursor(raw: string): Place | undefined {
  if (raw.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  // Canonical only: a cursor cut short, padded or holding bytes that are not UTF-8 re-encodes differently.
  if (Buffer.from(text, 'utf8').toString('base64url') !== raw) return undefined;
  const m = /^(0|[1-9]\d{0,15})\.(\P{Cc}{1,2048})$/u.exec(text);
  if (!m || Number(m[1]) > MAX_MS) return undefined;
  return { at: Number(m[1]), id: m[2]! };
}

/** An ISO 8601 date or date-time (what `toISOString` and the cursors served before look like). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `before` query value: a cursor (`nextCursor`), or an ISO 8601 time meaning "strictly older
 * than it". Absent or empty: undefined. Anything else is the client's mistake: 400 with an error
 * that says what is accepted.
 */
export function parseBefore(raw: unknown, field = 'before'): Place | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string') {
    if (ISO_TIME.test(raw)) {
      const at = Date.parse(raw);
      if (Number.isFinite(at)) return { at, id: '' };
    }
    const place = decodeCursor(raw);
    if (place) return place;
  }
  throw new BadRequest(`${field} must be a cursor from nextCursor or an ISO 8601 time`);
}
