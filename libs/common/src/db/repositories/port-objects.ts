/**
 * The shared part of the small stores of addressable objects written over the engine port (ADR
 * 0013): flags, invites, sections, recommendations. A row's `_id` is the object's `id`, so every
 * read and write of one object is a primary-key operation; a soft delete and a restore are
 * compare-and-sets on the value read, so of concurrent callers exactly one is told it changed
 * the row; admin lists are offset pages with their total, sorted to a total order.
 */
import type { Collection, CollectionSpec, Engine, Filter, Sort, Value } from '../engine/port';
import type { FoundRows, PageRequest } from './object-collection';
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

export class PortObjectStore<T extends ObjectRow> {
  protected readonly rows: Collection<T>;

  constructor(engine: Engine, spec: CollectionSpec) {
    this.rows = engine.collection<T>(spec);
  }

  /** The object by id, deleted or not. */
  async byId(id: string): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.rows.findOne({ _id: id });
  }

  /** The object by id unless it is soft-deleted. */
  async liveById(id: string): Promise<T | null> {
    const row = await this.byId(id);
    return row && !row.deletedAt ? row : null;
  }

  /** Inserts a new object (`_id` = `id`), stamped now. */
  protected async insert(row: Omit<T, '_id' | 'createdAt' | 'updatedAt'>): Promise<T> {
    const now = new Date();
    const doc = { ...row, _id: row.id, createdAt: now, updatedAt: now } as unknown as T;
    await this.rows.insertOne(doc);
    return doc;
  }

  /** Sets fields (and unsets `unset`); the object after, null when missing. */
  async set(id: string, fields: Record<string, Value | undefined>, unset: string[] = []): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.rows.findOneAndUpdate(
      { _id: id },
      {
        $set: { ...fields, updatedAt: new Date() },
        ...(unset.length ? { $unset: Object.fromEntries(unset.map((f) => [f, true as const])) } : {}),
      },
    );
  }

  /**
   * Soft-deletes: the object as it was before when this call deleted it, null when it was
   * missing or already deleted. The write is conditional on `deletedAt` still being null, so of
   * concurrent deletes exactly one gets the row (and runs the side effects).
   */
  async softDelete(id: string, fields: { deletedAt: Date; deletedBy?: string }): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.rows.findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: { ...fields, updatedAt: new Date() } },
      { returning: 'before' },
    );
  }

  /** Un-deletes; the object after, or null when it was not deleted (one of concurrent restores). */
  async restore(id: string): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.rows.findOneAndUpdate(
      { _id: id, deletedAt: { $ne: null } },
      { $set: { deletedAt: null, updatedAt: new Date() }, $unset: { deletedBy: true } },
    );
  }

  async hardDelete(id: string): Promise<boolean> {
    if (typeof id !== 'string' || !id) return false;
    return (await this.rows.deleteOne({ _id: id })) === 1;
  }
}
