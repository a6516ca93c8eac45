/**
 * A counter moved in place: `updateOne({ _id }, { $inc })` as one `UPDATE … SET doc =
 * jsonb_set(…)`, without reading the document into JavaScript, applying the change and writing it
 * back. A post moves a dozen counters (each of its lists, its author's), and the read, decode,
 * encode and replace of each was a large share of the adapter's time per post
 * (docs/performance.md).
 *
 * The statement changes the document only where the JavaScript path would give the same result:
 * every field it moves is a number or absent, and every object above it an object or absent. When
 * it changes nothing (no such document, or a field holding something else), the caller takes the
 * general path, which upserts, or refuses as it always did.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { CollectionSpec, Filter, Update } from '../port';
import { idAlone } from './sql';

export interface InPlace {
  sql: string;
  params: SQLInputValue[];
}

/** Labels SQLite's JSON path takes literally (no escapes): no backslash, quote or control character. */
// eslint-disable-next-line no-control-regex
const PLAIN_LABELS = /^[^\\"\u0000-\u001f]+$/u;

/** `$."a"."b"`: every label quoted, so a tag's characters are never read as path syntax. */
function jsonPath(parts: readonly string[]): string {
  return `$${parts.map((p) => `."${p}"`).join('')}`;
}

/**
 * The in-place statement for an update that only increments fields of the document with a given
 * `_id`, or null when the update or filter is anything else (the general path serves them).
 */
export function incrementInPlace(
  table: string,
  spec: CollectionSpec,
  filter: Filter,
  update: Update,
): InPlace | null {
  const id = idAlone(filter);
  if (id === undefined) return null;
  const ops = Object.keys(update);
  if (ops.length !== 1 || ops[0] !== '$inc') return null;
  const inc = Object.entries(update.$inc ?? {});
  if (!inc.length) return null;
  const dates = new Set(spec.dates ?? []);
  const sets: string[] = [];
  const setParams: SQLInputValue[] = [];
  const guards: string[] = [];
  const guardParams: SQLInputValue[] = [];
  const parents = new Set<string>();
  for (const [path, by] of inc) {
    // jsonb_set stores a path's label as written: a backslash or a quote (or a control character)
    // would make a key JSON cannot read back, so such a key takes the general path.
    if (dates.has(path) || !PLAIN_LABELS.test(path)) return null;
    const parts = path.split('.');
    const at = jsonPath(parts);
    sets.push('?, coalesce(doc ->> ?, 0) + ?');
    setParams.push(at, at, by);
    guards.push("coalesce(json_type(doc, ?), 'integer') IN ('integer', 'real')");
    guardParams.push(at);
    for (let i = 1; i < parts.length; i++) parents.add(jsonPath(parts.slice(0, i)));
  }
  for (const at of parents) {
    guards.push("coalesce(json_type(doc, ?), 'object') = 'object'");
    guardParams.push(at);
  }
  return {
    sql: `UPDATE ${table} SET doc = jsonb_set(doc, ${sets.join(', ')}) WHERE _id = ? AND ${guards.join(' AND ')}`,
    params: [...setParams, id, ...guardParams],
  };
}
