/**
 * The small stores of addressable objects with timestamps (flags, invites, sections,
 * recommendations) on ObjectCollection, and the `deleted=` modes of the admin lists.
 */
import type { CollectionSpec, Engine, Filter, Value } from '../engine/port';
import { ObjectCollection } from './object-collection';
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
