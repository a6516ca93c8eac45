/**
 * The port's semantics, written once in plain JavaScript: what a filter matches, how an update
 * changes a document, how values order. The SQLite adapter applies updates with these (inside a
 * write transaction); the MongoDB adapter leaves them to the server, and the conformance suite
 * holds both to the same answers. Filters and updates are checked here too: anything the port
 * does not define (an unknown operator, an embedded-document or array comparison, an operator
 * object where a value belongs) is a PortUsageError, never silently passed to an engine.
 */
import {
  PortUsageError,
  type CollectionSpec,
  type Condition,
  type Doc,
  type Filter,
  type Range,
  type Scalar,
  type Sort,
  type Update,
  type Value,
} from './port';

const RANGE_OPS = ['$gt', '$gte', '$lt', '$lte'] as const;
const CONDITION_OPS = new Set<string>(['$in', '$ne', '$exists', ...RANGE_OPS]);
const UPDATE_OPS = new Set<string>([
  '$set',
  '$unset',
  '$inc',
  '$max',
  '$min',
  '$push',
  '$pull',
  '$addToSet',
  '$setOnInsert',
]);
const PATH_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/**
 * Paths an update may change: object keys that are data (an emoji in a reaction summary) are
 * allowed, as long as no segment is empty, starts with `$` or holds a dot. Filters, sorts and
 * indexes take identifier paths only (they become SQL JSON paths).
 */
const UPDATE_PATH_RE = /^[^.$\s][^.\s]{0,63}(\.[^.$\s][^.\s]{0,63})*$/u;

export function isScalar(v: unknown): v is Scalar {
  return v === null || v instanceof Date || ['string', 'number', 'boolean'].includes(typeof v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function checkPath(path: string): string {
  if (!PATH_RE.test(path)) throw new PortUsageError(`not a field path: ${JSON.stringify(path)}`);
  return path;
}

function checkScalar(v: unknown, where: string): Scalar {
  if (!isScalar(v) || (typeof v === 'number' && !Number.isFinite(v)))
    throw new PortUsageError(`${where}: expected a scalar, got ${Array.isArray(v) ? 'an array' : typeof v}`);
  return v;
}

/** The kinds of condition, for adapters that translate them. */
export type Parsed =
  | { kind: 'eq'; value: Scalar }
  | { kind: 'in'; values: Scalar[] }
  | { kind: 'ne'; value: Scalar }
  | { kind: 'exists'; exists: boolean }
  | { kind: 'range'; range: Range };

export function parseCondition(path: string, c: Condition): Parsed {
  if (!isPlainObject(c)) return { kind: 'eq', value: checkScalar(c, path) };
  const keys = Object.keys(c);
  if (!keys.length || keys.some((k) => !CONDITION_OPS.has(k)))
    throw new PortUsageError(`${path}: unknown condition ${JSON.stringify(keys)}`);
  if ('$in' in c) {
    if (keys.length !== 1 || !Array.isArray(c.$in))
      throw new PortUsageError(`${path}: $in takes an array alone`);
    return { kind: 'in', values: c.$in.map((v) => checkScalar(v, `${path}.$in`)) };
  }
  if ('$ne' in c) {
    if (keys.length !== 1) throw new PortUsageError(`${path}: $ne stands alone`);
    return { kind: 'ne', value: checkScalar(c.$ne, `${path}.$ne`) };
  }
  if ('$exists' in c) {
    if (keys.length !== 1 || typeof c.$exists !== 'boolean')
      throw new PortUsageError(`${path}: $exists takes a boolean alone`);
    return { kind: 'exists', exists: c.$exists };
  }
  const range: Range = {};
  for (const op of RANGE_OPS) if (op in c) range[op] = checkScalar((c as Range)[op], `${path}.${op}`);
  return { kind: 'range', range };
}

/** The filter's conditions, checked. */
export function parseFilter(filter: Filter): Array<[string, Parsed]> {
  if (!isPlainObject(filter)) throw new PortUsageError('a filter is an object');
  return Object.entries(filter).map(([path, c]) => [checkPath(path), parseCondition(path, c)]);
}

/** The value at `path` (undefined when missing or when the path crosses an array). */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function typeRank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (isPlainObject(v)) return 3;
  if (Array.isArray(v)) return 4;
  if (typeof v === 'boolean') return 5;
  return 6; // Date
}

/** MongoDB's order across and within types (null < numbers < strings < … < booleans < dates). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  return typeRank(a) === typeRank(b) && compareValues(a, b) === 0 && isScalar(a);
}

function matchesOne(doc: Doc, path: string, p: Parsed): boolean {
  const v = getPath(doc, path);
  switch (p.kind) {
    case 'eq':
      return sameValue(p.value, v);
    case 'in':
      return p.values.some((x) => sameValue(x, v));
    case 'ne':
      return !sameValue(p.value, v);
    case 'exists':
      return (v !== undefined) === p.exists;
    case 'range': {
      if (v === undefined || v === null) return false;
      const { $gt, $gte, $lt, $lte } = p.range;
      // Comparisons hold within one type only, as in MongoDB.
      const cmp = (bound: Scalar) => (typeRank(bound) === typeRank(v) ? compareValues(v, bound) : NaN);
      return (
        ($gt === undefined || cmp($gt) > 0) &&
        ($gte === undefined || cmp($gte) >= 0) &&
        ($lt === undefined || cmp($lt) < 0) &&
        ($lte === undefined || cmp($lte) <= 0)
      );
    }
  }
}

export function matches(doc: Doc, filter: Filter): boolean {
  return parseFilter(filter).every(([path, p]) => matchesOne(doc, path, p));
}

/** Orders documents by `sort` (then `_id`). */
export function compareBySort(sort: Sort): (a: Doc, b: Doc) => number {
  return (a, b) => {
    for (const [path, dir] of sort) {
      const c = compareValues(getPath(a, path), getPath(b, path));
      if (c !== 0) return c * dir;
    }
    return compareValues(a._id, b._id);
  };
}

/** Whether `doc` comes strictly after the key `after` in `sort` order (keyset paging). */
export function isAfter(doc: Doc, sort: Sort, after: readonly Scalar[]): boolean {
  for (let i = 0; i < sort.length; i++) {
    const [path, dir] = sort[i]!;
    const c = compareValues(getPath(doc, path), after[i]) * dir;
    if (c !== 0) return c > 0;
  }
  return false;
}

export function checkKeyset(sort: Sort | undefined, after: readonly Scalar[] | undefined): void {
  if (!after) return;
  if (!sort?.length || after.length !== sort.length)
    throw new PortUsageError('`after` needs one value per sort field');
  after.forEach((v, i) => checkScalar(v, `after[${i}]`));
}

function clone<T>(v: T): T {
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
  return v;
}

function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = doc;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === undefined || next === null) cur[part] = {};
    else if (!isPlainObject(next)) throw new PortUsageError(`${path}: ${part} is not an object`);
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

function unsetPath(doc: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  const parent = getPath(doc, parts.slice(0, -1).join('.')) ?? (parts.length === 1 ? doc : undefined);
  if (isPlainObject(parent)) delete parent[parts[parts.length - 1]!];
}

/** Checks an update: known operators, paths, one operator per path, values of the right kind. */
export function checkUpdate(update: Update): void {
  if (!isPlainObject(update)) throw new PortUsageError('an update is an object');
  const seen = new Set<string>();
  for (const [op, fields] of Object.entries(update)) {
    if (!UPDATE_OPS.has(op)) throw new PortUsageError(`unknown update operator ${op}`);
    if (!isPlainObject(fields)) throw new PortUsageError(`${op} takes an object`);
    for (const [path, v] of Object.entries(fields)) {
      if (!UPDATE_PATH_RE.test(path)) throw new PortUsageError(`not a field path: ${JSON.stringify(path)}`);
      if (path === '_id' && op !== '$setOnInsert') throw new PortUsageError('_id never changes');
      if (op !== '$setOnInsert') {
        if (seen.has(path)) throw new PortUsageError(`${path} is changed twice in one update`);
        seen.add(path);
      }
      if (op === '$inc' && (typeof v !== 'number' || !Number.isFinite(v)))
        throw new PortUsageError(`$inc ${path}: a finite number`);
      if (op === '$pull' && isPlainObject(v)) {
        if (!Object.keys(v).length) throw new PortUsageError(`$pull ${path}: an empty element match`);
        for (const [f, x] of Object.entries(v)) checkScalar(x, `$pull ${path}.${checkPath(f)}`);
      } else if (['$max', '$min', '$pull', '$addToSet'].includes(op)) checkScalar(v, `${op} ${path}`);
    }
  }
}

/** The document after `update` (a new object; `doc` is not changed). */
export function applyUpdate<T extends Doc>(doc: T, update: Update, inserting: boolean): T {
  checkUpdate(update);
  const out = clone(doc) as Record<string, unknown>;
  for (const [path, v] of Object.entries(update.$set ?? {}))
    if (v !== undefined) setPath(out, path, clone(v));
  if (inserting)
    for (const [path, v] of Object.entries(update.$setOnInsert ?? {}))
      if (v !== undefined) setPath(out, path, clone(v));
  for (const path of Object.keys(update.$unset ?? {})) unsetPath(out, path);
  for (const [path, by] of Object.entries(update.$inc ?? {})) {
    const cur = getPath(out, path);
    if (cur !== undefined && cur !== null && typeof cur !== 'number')
      throw new PortUsageError(`$inc ${path}: the stored value is not a number`);
    setPath(out, path, ((cur as number | undefined) ?? 0) + by);
  }
  const bound = (ops: Record<string, Scalar> | undefined, wins: (c: number) => boolean) => {
    for (const [path, v] of Object.entries(ops ?? {})) {
      const cur = getPath(out, path);
      if (cur === undefined || cur === null || wins(compareValues(v, cur))) setPath(out, path, clone(v));
    }
  };
  bound(update.$max, (c) => c > 0);
  bound(update.$min, (c) => c < 0);
  const arrayAt = (path: string): unknown[] => {
    const cur = getPath(out, path);
    if (cur === undefined || cur === null) return [];
    if (!Array.isArray(cur)) throw new PortUsageError(`${path}: the stored value is not an array`);
    return cur as unknown[];
  };
  for (const [path, v] of Object.entries(update.$push ?? {}))
    setPath(out, path, [...arrayAt(path), clone(v)]);
  for (const [path, v] of Object.entries(update.$pull ?? {})) {
    const hit = isPlainObject(v)
      ? (x: unknown) =>
          isPlainObject(x) && Object.entries(v).every(([f, want]) => sameValue(want, getPath(x, f)))
      : (x: unknown) => sameValue(v, x);
    setPath(
      out,
      path,
      arrayAt(path).filter((x) => !hit(x)),
    );
  }
  for (const [path, v] of Object.entries(update.$addToSet ?? {})) {
    const arr = arrayAt(path);
    setPath(out, path, arr.some((x) => sameValue(v, x)) ? arr : [...arr, clone(v)]);
  }
  return out as T;
}

/** The document an upsert inserts: the filter's equalities, then the update as an insert. */
export function upsertDocument<T extends Doc>(filter: Filter, update: Update): T {
  const base: Record<string, unknown> = {};
  for (const [path, p] of parseFilter(filter)) if (p.kind === 'eq') setPath(base, path, p.value);
  const doc = applyUpdate(base as unknown as Doc, update, true);
  if (typeof doc._id !== 'string' || !doc._id)
    throw new PortUsageError('an upsert names its _id (in the filter or $setOnInsert)');
  return doc as T;
}

/** Only `fields` (and `_id`) of `doc`. */
export function project<T extends Doc>(doc: T, fields: readonly string[] | undefined): T {
  if (!fields) return doc;
  const out: Record<string, unknown> = { _id: doc._id };
  for (const f of fields) {
    const v = getPath(doc, checkPath(f));
    if (v !== undefined) setPath(out, f, v);
  }
  return out as T;
}

export type { Value };

/**
 * A unique index holds every document of its collection: its fields are present and not null
 * (a sparse one: absent or set, never null). MongoDB indexes a missing field as null, so two
 * documents without it collide there, while SQLite lets NULLs repeat; requiring the fields makes
 * both engines answer alike.
 */
export function checkUniqueFields(spec: CollectionSpec, doc: object): void {
  for (const ix of spec.indexes)
    if (ix.unique)
      for (const [path] of ix.fields) {
        const v = getPath(doc, path);
        // A sparse index leaves out a document without the field; a null would be indexed there.
        if (path !== '_id' && (v === null || (v === undefined && !ix.sparse)))
          throw new PortUsageError(`${spec.name}: ${path} is part of a unique index and must be set`);
      }
}

/** An update may not unset (or set to null) a field of a unique index (see checkUniqueFields). */
export function checkUniqueUpdate(spec: CollectionSpec, update: Update): void {
  for (const ix of spec.indexes)
    if (ix.unique)
      for (const [path] of ix.fields) {
        const set = update.$set?.[path];
        if (
          (!ix.sparse && path in (update.$unset ?? {})) ||
          (path in (update.$set ?? {}) && (set ?? null) === null)
        )
          throw new PortUsageError(`${spec.name}: ${path} is part of a unique index and must stay set`);
      }
}
