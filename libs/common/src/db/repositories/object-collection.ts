/**
 * The shared part of every store of addressable objects (posts, replies, circles, groups, pages,
 * bookmarks, flags, …) written over the engine port (ADR 0013): the object's `id` is its `_id`;
 * soft delete that tells exactly one of concurrent callers it deleted (a compare-and-set on
 * `deletedAt`); counters that never stay below zero; one `$in` read for many ids; paged admin
 * lists. A subclass declares its collection (indexes for its own queries, and for the shared
 * ones it uses: `actorId` for author copies, `deletedAt` for the GC, its parent field for folder
 * trees) and adds the intention-named methods.
 */
import type { Collection, CollectionSpec, Engine, Filter, Sort, Update } from '../engine/port';

export interface ObjectRow {
  _id: string;
  id: string;
  deletedAt?: Date | null;
}

export interface PageRequest {
  skip: number;
  limit: number;
}

export interface FoundRows<T> {
  total: number;
  items: T[];
}

/** A stored object as lists and APIs show it: without its key. */
export function shownRow<T extends { _id?: unknown }>(doc: T): Omit<T, '_id'> {
  const { _id, ...rest } = doc;
  void _id;
  return rest;
}

/** The reaction state kept on a reactable object. */
export interface ReactState {
  reactCount: number;
  reactSummary: Record<string, number>;
}

/** Most used first, then by emoji: the order clients show. */
export function sortSummary(s: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(s).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

export class ObjectCollection<T extends ObjectRow> {
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
    const doc = await this.byId(id);
    return doc && !doc.deletedAt ? doc : null;
  }

  /** Live objects by id, in one read. */
  async liveByIds(ids: readonly string[]): Promise<Map<string, T>> {
    const wanted = [...new Set(ids.filter((id) => typeof id === 'string' && id))];
    if (!wanted.length) return new Map();
    const docs = await this.rows.find({ _id: wanted.length === 1 ? wanted[0]! : { $in: wanted } });
    return new Map(docs.filter((d) => !d.deletedAt).map((d) => [d.id, d]));
  }

  /** Inserts a new object (its `_id` is its `id`). */
  protected async insert(doc: Omit<T, '_id'>): Promise<T> {
    const row = { ...doc, _id: doc.id } as T;
    await this.rows.insertOne(row);
    return row;
  }

  /** Sets (and unsets) fields; the object after the change, null when missing. */
  async set(id: string, fields: Record<string, unknown>, unset: readonly string[] = []): Promise<T | null> {
    const update: Update = {};
    if (Object.keys(fields).length) update.$set = fields as Update['$set'];
    if (unset.length) update.$unset = Object.fromEntries(unset.map((f) => [f, true] as const));
    if (!update.$set && !update.$unset) return this.byId(id);
    return this.rows.findOneAndUpdate({ _id: id }, update);
  }

  /** Moves a counter by one step; a decrement never leaves it below zero. */
  async bump(id: string, field: string, by: number): Promise<void> {
    await this.bumpMany(id, { [field]: by });
  }

  /**
   * Moves counters of one object in one `$inc`. A decrement that went below zero (a count that
   * was already wrong, or a race with a reset) is set back to zero only where it is still below.
   */
  protected async bumpMany(id: string, moves: Record<string, number | undefined>): Promise<void> {
    const inc = Object.fromEntries(Object.entries(moves).filter(([, by]) => by)) as Record<string, number>;
    if (!Object.keys(inc).length) return;
    // Only a decrement needs the counters after the move; an increment is a plain update (which
    // an engine may make in place, without reading the object).
    if (Object.values(inc).every((by) => by > 0)) {
      await this.rows.updateOne({ _id: id }, { $inc: inc });
      return;
    }
    const after = await this.rows.findOneAndUpdate({ _id: id }, { $inc: inc });
    if (!after) return;
    for (const f of Object.keys(inc).filter((k) => (inc[k] ?? 0) < 0))
      if (((after as Record<string, unknown>)[f] as number) < 0)
        await this.rows.updateOne({ _id: id, [f]: { $lt: 0 } }, { $set: { [f]: 0 } });
  }

  /**
   * Soft-deletes: the object as it was before when this call deleted it, null when it was
   * missing or already deleted (so a side effect runs for exactly one of concurrent deletes).
   */
  async softDelete(id: string, fields: Record<string, unknown> & { deletedAt: Date }): Promise<T | null> {
    return this.rows.findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: fields as Update['$set'] },
      { returning: 'before' },
    );
  }

  /** Un-deletes; the object after, or null when it was not deleted. */
  async restore(id: string, fields: Record<string, unknown> = {}): Promise<T | null> {
    const current = await this.byId(id);
    if (!current?.deletedAt) return null;
    return this.rows.findOneAndUpdate(
      { _id: id, deletedAt: current.deletedAt },
      { $set: { ...fields, deletedAt: null }, $unset: { deletedBy: true } },
    );
  }

  /** Sets fields of the author copy (`actor.name`, `actor.icon`) on everything an actor wrote. */
  async refreshActorCopy(actorId: string, set: Record<string, string>): Promise<void> {
    await this.rows.updateMany({ actorId }, { $set: set });
  }

  /** Removes objects soft-deleted before `cutoff` for good (the GC); their ids. */
  async purgeDeletedBefore(cutoff: Date): Promise<string[]> {
    const old: Filter = { deletedAt: { $lt: cutoff } };
    const rows = await this.rows.find(old, { fields: ['id'] });
    if (rows.length) await this.rows.deleteMany(old);
    return rows.map((r) => r.id);
  }

  /** Live items directly under any of `parents` (folder trees of pages and bookmarks). */
  async childrenIn(
    parentField: 'parentFolder' | 'parentId',
    parents: readonly string[],
    ownerId?: string,
  ): Promise<T[]> {
    if (!parents.length) return [];
    return this.rows.find({
      [parentField]: parents.length === 1 ? parents[0]! : { $in: [...parents] },
      ...(ownerId ? { actorId: ownerId } : {}),
      deletedAt: null,
    });
  }

  /** Moves the reaction state by {emoji: +1|-1}; the state after (zero entries dropped). */
  async reactDelta(id: string, delta: Record<string, number>): Promise<ReactState> {
    const inc: Record<string, number> = {};
    let total = 0;
    for (const [emoji, d] of Object.entries(delta)) {
      if (!d) continue;
      inc[`reactSummary.${emoji}`] = d;
      total += d;
    }
    if (total) inc.reactCount = total;
    const after: (T & Partial<ReactState>) | null = Object.keys(inc).length
      ? await this.rows.findOneAndUpdate({ _id: id }, { $inc: inc })
      : await this.byId(id);
    const summary = { ...(after?.reactSummary ?? {}) };
    const empty = Object.keys(summary).filter((k) => (summary[k] ?? 0) <= 0);
    if (!empty.length && (after?.reactCount ?? 0) >= 0)
      return { reactCount: after?.reactCount ?? 0, reactSummary: sortSummary(summary) };
    // Drift (a removal counted twice): drop the spent emoji and recount from what is left.
    for (const k of empty) delete summary[k];
    const count = Object.values(summary).reduce((s, n) => s + n, 0);
    await this.rows.updateOne(
      { _id: id },
      {
        ...(empty.length
          ? { $unset: Object.fromEntries(empty.map((k) => [`reactSummary.${k}`, true] as const)) }
          : {}),
        $set: { reactCount: count },
      },
    );
    return { reactCount: count, reactSummary: sortSummary(summary) };
  }

  async hardDelete(id: string): Promise<boolean> {
    return (await this.rows.deleteOne({ _id: id })) === 1;
  }

  /**
   * A sorted, skipped, limited page with the filter's total; the sort ends in `_id` (total).
   * `fields`: only those (and `_id`) are read.
   */
  protected async page(
    filter: Filter,
    req: PageRequest,
    sort: Sort,
    fields?: readonly string[],
  ): Promise<FoundRows<T>> {
    const total: Sort = sort.some(([f]) => f === '_id') ? sort : [...sort, ['_id', sort.at(-1)?.[1] ?? -1]];
    const [count, items] = await Promise.all([
      this.rows.count(filter),
      this.rows.find(filter, {
        sort: total,
        skip: req.skip,
        limit: req.limit,
        ...(fields ? { fields } : {}),
      }),
    ]);
    return { total: count, items };
  }
}
