/**
 * Index coverage: every query a store issues must be served by a declared index, on both engines
 * (issue 22, item 3). A query is covered when some index of its collection starts with the
 * fields the filter tests for equality (any order, `$in` included), followed by the sort fields
 * in order (all in the index's directions or all reversed), and holds every other field the
 * filter tests after those (MongoDB's equality-sort-range rule). An equality on `_id` is the
 * primary key's, whatever else the filter tests. Adapters call `assertCovered` when the engine is opened with
 * `checkIndexes` (the test suites do), so an unindexed query fails a test instead of scanning a
 * table in production.
 */
import { parseFilter } from './documents';
import { PortUsageError, type CollectionSpec, type Filter, type IndexSpec, type Sort } from './port';

function covers(index: IndexSpec, equal: Set<string>, sort: Sort, others: Set<string>): boolean {
  const fields = index.fields.map(([f]) => f);
  // Equality fields first, in any order.
  const head = new Set(fields.slice(0, equal.size));
  if ([...equal].some((f) => !head.has(f))) return false;
  let i = equal.size;
  // Then the sort, in the index's direction or entirely reversed (an index is read both ways).
  const sortFields = sort.filter(([f]) => !equal.has(f));
  let flip: number | undefined;
  for (const [f, dir] of sortFields) {
    if (f === '_id' && i === fields.length) return true; // ties by the primary key end the order
    const at = index.fields[i];
    if (!at || at[0] !== f) return false;
    const sign = at[1] === dir ? 1 : -1;
    if (flip !== undefined && sign !== flip) return false;
    flip = sign;
    i++;
  }
  // Every other tested field (ranges, $ne, $exists) is in the index after the equalities; with
  // no sort to walk the index by, the first of them must come right after the equalities, or the
  // index would be read whole.
  if (!sortFields.length && others.size && !others.has(fields[i] ?? '')) return false;
  const rest = new Set(fields.slice(equal.size));
  return [...others].every((f) => rest.has(f));
}

/** Whether `filter` sorted by `sort` is served by one of `spec`'s indexes. */
export function isCovered(spec: CollectionSpec, filter: Filter, sort: Sort = []): boolean {
  const parsed = parseFilter(filter);
  const equal = new Set(parsed.filter(([, p]) => p.kind === 'eq' || p.kind === 'in').map(([f]) => f));
  const others = new Set(parsed.filter(([, p]) => p.kind !== 'eq' && p.kind !== 'in').map(([f]) => f));
  // A whole-collection read in key order (scan, clear, count), or one document by its key.
  if (!parsed.length && sort.every(([f]) => f === '_id')) return true;
  // Equality on the primary key reaches one document, whatever else the filter tests.
  if (parsed.some(([f, p]) => f === '_id' && p.kind === 'eq')) return true;
  const primary: IndexSpec = { fields: [['_id', 1]], serves: 'primary key' };
  return [primary, ...spec.indexes].some((ix) => covers(ix, equal, sort, others));
}

export function assertCovered(spec: CollectionSpec, filter: Filter, sort?: Sort): void {
  if (!isCovered(spec, filter, sort))
    throw new PortUsageError(
      `${spec.name}: no declared index serves ${JSON.stringify(Object.keys(filter))}` +
        (sort?.length ? ` sorted by ${JSON.stringify(sort)}` : ''),
    );
}
