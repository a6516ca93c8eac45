/**
 * The small stores of addressable objects with timestamps (flags, invites, sections,
 * recommendations) on ObjectCollection, and the admin lists' helpers: the `deleted=` modes and
 * offset pages with their total, sorted to a total order.
 */
import type { Collection, CollectionSpec, Engine, Filter, Sort, Value } from '../engine/port';
import { ObjectCollection, type FoundRows, type PageRequest } from './object-collection';
import type { DeletedMode } from './listing';

/** What every such row holds besides its own fields. */
export type ObjectRow = {
  _id: string;
  id: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date | null;
};

/** The condition of a `deleted=` mode (spec 4.5) on `deletedAt`. */
export function deletedCondition(mode: DeletedMode): Filter {
  if (mode === 'deleted') return { deletedAt: { $ne: null } };
  if (mode === 'include') return {};
  return { deletedAt: null };
}

/** An offset page with the filter's total (admin lists); `sort` must end in `_id`. */
export async function pageOf<T extends { _id: string }>(
  rows: Collection<T>,
  filter: Filter,
  sort: Sort,
  req: PageRequest,
): Promise<FoundRows<T>> {
  const [total, items] = await Promise.all([
    rows.count(filter),
    rows.find(filter, { sort, skip: req.skip, limit: req.limit }),
  ]);
  return { total, items };
}

/**
 * An object store whose rows carry `createdAt` and `updatedAt`: ObjectCollection's reads and
 * writes, with every write stamped.
 */
export class PortObjectStore<T extends ObjectRow> extends ObjectCollection<T> {
  constructor(engine: Engine, spec: CollectionSpec) {
    super(engine, spec);
  }

  /** Inserts a new object (`_id` = `id`), stamped now. */
  protected async insertNew(row: Omit<T, '_id' | 'createdAt' | 'updatedAt'>): Promise<T> {
    const now = new Date();
    return this.insert({ ...row, createdAt: now, updatedAt: now } as unknown as Omit<T, '_id'>);
  }

  /** Sets fields (and unsets `unset`), stamped; the object after, null when missing. */
  override async set(
    id: string,
    fields: Record<string, Value | undefined>,
    unset: readonly string[] = [],
  ): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return super.set(id, { ...fields, updatedAt: new Date() }, unset);
  }

  /** ObjectCollection's soft delete (one of concurrent callers gets the row), stamped. */
  override async softDelete(id: string, fields: { deletedAt: Date; deletedBy?: string }): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return super.softDelete(id, { ...fields, updatedAt: new Date() });
  }

  /** Un-deletes (one of concurrent restores), stamped; the object after, or null. */
  override async restore(id: string): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return super.restore(id, { updatedAt: new Date() });
  }
}
