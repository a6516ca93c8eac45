/**
 * The port's filters, sorts and keys in SQL. A field is the expression `doc ->> '$.path'` (the
 * `_id` column for `_id`), spelled identically in every index and every query so that SQLite's
 * planner matches them. Names are checked by the port (`checkPath`), so they are safe to inline.
 */
import type { SQLInputValue } from 'node:sqlite';
import { checkPath, parseFilter } from '../documents';
import type { Filter, IndexSpec, Scalar, Sort } from '../port';
import { bindValue } from './codec';

export function field(path: string): string {
  return path === '_id' ? '_id' : `(doc ->> '$.${checkPath(path)}')`;
}

export function quoteName(name: string): string {
  return `"${name}"`;
}

export interface Where {
  sql: string;
  params: SQLInputValue[];
}

export function where(filter: Filter): Where {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  for (const [path, p] of parseFilter(filter)) {
    const f = field(path);
    switch (p.kind) {
      case 'eq':
        if (p.value === null) {
          parts.push(`${f} IS NULL`);
        } else {
          parts.push(`${f} = ?`);
          params.push(bindValue(p.value));
        }
        break;
      case 'in': {
        const values = p.values.filter((v) => v !== null);
        const alts: string[] = [];
        if (values.length) {
          alts.push(`${f} IN (${values.map(() => '?').join(', ')})`);
          params.push(...values.map(bindValue));
        }
        if (values.length < p.values.length) alts.push(`${f} IS NULL`);
        parts.push(alts.length ? `(${alts.join(' OR ')})` : '0');
        break;
      }
      case 'ne':
        parts.push(`${f} IS NOT ?`);
        params.push(bindValue(p.value));
        break;
      case 'exists':
        parts.push(
          path === '_id'
            ? p.exists
              ? '1'
              : '0'
            : `json_type(doc, '$.${path}') IS ${p.exists ? 'NOT ' : ''}NULL`,
        );
        break;
      case 'range':
        for (const [op, sqlOp] of [
          ['$gt', '>'],
          ['$gte', '>='],
          ['$lt', '<'],
          ['$lte', '<='],
        ] as const) {
          const bound = p.range[op];
          if (bound === undefined) continue;
          if (bound === null) {
            parts.push('0');
          } else {
            parts.push(`${f} ${sqlOp} ?`);
            params.push(bindValue(bound));
          }
        }
        break;
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** The `_id` a filter names when it names nothing else (a document by its key). */
export function idAlone(filter: Filter): string | undefined {
  const keys = Object.keys(filter);
  return keys.length === 1 && typeof filter._id === 'string' ? filter._id : undefined;
}

/**
 * Strictly after `after` in `sort` order. One direction throughout: a row value, which SQLite
 * reads from an index as a range; mixed directions: the expanded OR form.
 */
export function keyset(sort: Sort, after: readonly Scalar[]): Where {
  const exprs = sort.map(([p]) => field(p));
  const params = after.map(bindValue);
  const dir = sort[0]![1];
  if (sort.every(([, d]) => d === dir)) {
    const op = dir === 1 ? '>' : '<';
    return sort.length === 1
      ? { sql: `${exprs[0]} ${op} ?`, params }
      : { sql: `(${exprs.join(', ')}) ${op} (${exprs.map(() => '?').join(', ')})`, params };
  }
  const alts: string[] = [];
  const out: SQLInputValue[] = [];
  for (let i = 0; i < sort.length; i++) {
    const eqs = exprs.slice(0, i).map((e) => `${e} = ?`);
    alts.push(`(${[...eqs, `${exprs[i]} ${sort[i]![1] === 1 ? '>' : '<'} ?`].join(' AND ')})`);
    out.push(...params.slice(0, i), params[i]!);
  }
  return { sql: `(${alts.join(' OR ')})`, params: out };
}

/** `ORDER BY`, ending with `_id` so that every order is total. */
export function orderBy(sort: Sort | undefined): string {
  const terms = (sort ?? []).map(([p, d]) => `${field(p)} ${d === 1 ? 'ASC' : 'DESC'}`);
  if (!(sort ?? []).some(([p]) => p === '_id')) terms.push('_id ASC');
  return `ORDER BY ${terms.join(', ')}`;
}

/** A stable name for an index: the collection and its fields. */
export function indexName(collection: string, index: IndexSpec): string {
  const parts = index.fields.map(([f, d]) => `${f.replace(/\./g, '_')}${d === -1 ? '_desc' : ''}`);
  return `ix_${collection}__${parts.join('__')}${index.unique ? '__u' : ''}${index.sparse ? '__s' : ''}`;
}

export function createIndexSql(collection: string, index: IndexSpec): string {
  const cols = index.fields.map(([f, d]) => `${field(f)} ${d === 1 ? 'ASC' : 'DESC'}`).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quoteName(indexName(collection, index))} ON ${quoteName(collection)} (${cols})`;
}
