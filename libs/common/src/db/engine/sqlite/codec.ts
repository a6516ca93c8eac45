/**
 * Documents as SQLite stores them: JSON (kept as JSONB) with dates written as ISO 8601 strings
 * (`toISOString()`: fixed width, UTC, so they order as strings exactly as in time) and given back
 * as Dates at the paths the collection declares. Parameters bind as SQLite values: booleans as
 * 1/0 (what `->>` reads from JSON true/false), dates as their ISO strings.
 */
import type { SQLInputValue } from 'node:sqlite';
import { PortUsageError, type CollectionSpec, type Doc, type Scalar } from '../port';

export function bindValue(v: Scalar): SQLInputValue {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new PortUsageError('an invalid Date');
    return v.toISOString();
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/** JSON text of a document; Dates become ISO strings through their toJSON. */
export function encodeDoc(doc: Doc): string {
  return JSON.stringify(doc);
}

function reviveAt(node: unknown, parts: string[]): unknown {
  if (Array.isArray(node)) return node.map((x) => reviveAt(x, parts));
  if (!parts.length) {
    if (typeof node !== 'string') return node;
    const d = new Date(node);
    return Number.isNaN(d.getTime()) ? node : d;
  }
  if (typeof node !== 'object' || node === null) return node;
  const [head, ...rest] = parts as [string, ...string[]];
  const obj = node as Record<string, unknown>;
  if (head in obj) obj[head] = reviveAt(obj[head], rest);
  return node;
}

export function decodeDoc<T extends Doc>(json: string, spec: CollectionSpec): T {
  const doc = JSON.parse(json) as Record<string, unknown>;
  for (const path of spec.dates ?? []) reviveAt(doc, path.split('.'));
  return doc as T;
}
