/**
 * How a list entry is stored in its bucket (ADR 0011 item 12): one string, the JSON array
 * `[id, at (ms), by?]`, instead of a `{ id, at, by }` subdocument. FerretDB pays an update by the
 * elements of the document it rewrites, so a bucket of strings costs about half what a bucket of
 * subdocuments does to append to; MongoDB stores either as well. Buckets written before hold
 * subdocuments, and a bucket may hold both: `unpackEntry` reads either form, and `remove` pulls
 * the exact stored element whatever its form.
 */
import type { ListEntry } from './store';

/** A stored element: a packed string, or a subdocument of lists written before item 12. */
export type StoredEntry = string | { id: string; at: Date | string; by?: string };

export function packEntry(e: ListEntry): string {
  return JSON.stringify(e.by ? [e.id, e.at.getTime(), e.by] : [e.id, e.at.getTime()]);
}

/** The entry a stored element holds; undefined for an element no form can read. */
export function unpackEntry(raw: unknown): ListEntry | undefined {
  if (typeof raw === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'number')
      return undefined;
    const by: unknown = parsed[2];
    return { id: parsed[0], at: new Date(parsed[1]), ...(typeof by === 'string' ? { by } : {}) };
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const o = raw as { id?: unknown; at?: unknown; by?: unknown };
  if (typeof o.id !== 'string' || !(o.at instanceof Date || typeof o.at === 'string')) return undefined;
  return { id: o.id, at: new Date(o.at), ...(typeof o.by === 'string' && o.by ? { by: o.by } : {}) };
}
