/**
 * The shared part of every store of addressable objects (posts, replies, circles, groups, pages,
 * bookmarks, …): `_id`-keyed reads and writes (the object's `id` is its `_id`), soft delete that
 * tells exactly one caller it deleted, counters that never go below zero, and paged queries for
 * the lists that are not hot paths. Subclasses add the intention-named methods and the side
 * effects (lists, stamps) their writes imply.
 */
import type { Model } from 'mongoose';
import { GroupCommit } from '../group-commit';
import { InsertBatch } from '../insert-batch';
import { turnOf } from '../write-gate';
import { totalSort } from './listing';
import { applyReactDelta, type ReactState } from './react-state';

export type Row = Record<string, unknown> & { id: string };

export interface PageRequest {
  skip: number;
  limit: number;
}

export interface FoundRows<T> {
  total: number;
  items: T[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- every model of the app
export type AnyModel = Model<any>;

/** A stored document as lists show it: without its key and version (`{ _id: 0, __v: 0 }`). */
export function shown<T extends object>(doc: T): T {
  const { _id, __v, ...rest } = doc as T & { _id?: unknown; __v?: unknown };
  void _id;
  void __v;
  return rest as T;
}

/**
 * Operations per bulk write of a long pass (author copies, start-up passes, purges): each call
 * is one turn of the write queue on FerretDB, so a pass of thousands of writes lets the
 * requests' writes in between instead of holding the queue for all of them. (The command size
 * limit FerretDB needs is the connection's, FERRETDB_WRITE_BATCH.)
 */
export const WRITE_CHUNK = 20;

export class ObjectStore<T extends Row = Row> {
  /**
   * Fields the schema hides (`select: false`). findAndModify asks for them explicitly: FerretDB
   * 1.24 refuses the exclusion projection mongoose would add otherwise.
   */
  protected hiddenFields: string[] = [];

  /** Increments of counters, written together per object (group commit). */
  private readonly increments = new GroupCommit<{ id: string; inc: Record<string, number> }>(
    async (items) => {
      const byId = new Map<string, Record<string, number>>();
      for (const { id, inc } of items) {
        const sum = byId.get(id) ?? {};
        for (const [f, by] of Object.entries(inc)) sum[f] = (sum[f] ?? 0) + by;
        byId.set(id, sum);
      }
      await this.model.bulkWrite(
        [...byId].map(([id, inc]) => ({ updateOne: { filter: { _id: id }, update: { $inc: inc } } })),
        { ordered: false },
      );
    },
    (run) => turnOf(this.model)(run),
  );
  private readonly inserts: InsertBatch;

  constructor(protected readonly model: AnyModel) {
    this.inserts = new InsertBatch(model);
  }

  /** The object by id, deleted or not. */
  async byId(id: string): Promise<T | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.model.findOne({ _id: id }).lean<T>();
  }

  /** The object by id unless it is soft-deleted. */
  async liveById(id: string): Promise<T | null> {
    const doc = await this.byId(id);
    return doc && !doc.deletedAt ? doc : null;
  }

  /** Live objects by id, read one by one (`_id` lookups; FerretDB does not push `$in` down). */
  async liveByIds(ids: string[]): Promise<Map<string, T>> {
    const docs: Array<T | null> = await Promise.all([...new Set(ids)].map((id) => this.liveById(id)));
    return new Map(docs.filter((d): d is T => d !== null).map((d) => [d.id, d]));
  }

  /** Inserts, written together with those that arrive meanwhile (insert-batch.ts). */
  protected async insert(doc: Record<string, unknown> & { id: string }): Promise<T> {
    return (await this.inserts.insert({ ...doc, _id: doc.id })) as T;
  }

  /** Sets fields; returns the object after the change (null when missing). */
  async set(id: string, fields: Record<string, unknown>, unset: string[] = []): Promise<T | null> {
    const update: Record<string, unknown> = {};
    if (Object.keys(fields).length) update.$set = fields;
    if (unset.length) update.$unset = Object.fromEntries(unset.map((f) => [f, '']));
    // updateOne then a read: FerretDB's findAndModify refuses the projection that schemas with
    // hidden (select: false) fields add.
    if (Object.keys(update).length) await this.model.updateOne({ _id: id }, update);
    return this.byId(id);
  }

  /** Moves a counter by one step; a decrement never leaves it below zero. */
  async bump(id: string, field: string, by: number): Promise<void> {
    await this.bumpMany(id, { [field]: by });
  }

  /** Moves counters of one object in one `$inc`; decremented ones are clamped at zero after. */
  protected async bumpMany(id: string, moves: Record<string, number | undefined>): Promise<void> {
    const inc = Object.fromEntries(Object.entries(moves).filter(([, by]) => by)) as Record<string, number>;
    if (!Object.keys(inc).length) return;
    const down = Object.keys(inc).filter((f) => (inc[f] ?? 0) < 0);
    if (!down.length) return this.increments.add({ id, inc });
    await this.model.updateOne({ _id: id }, { $inc: inc });
    const after = await this.model
      .findOne({ _id: id }, Object.fromEntries(down.map((f) => [f, 1])))
      .lean<Record<string, number>>();
    const clamp = down.filter((f) => (after?.[f] ?? 0) < 0);
    if (clamp.length)
      await this.model.updateOne({ _id: id }, { $max: Object.fromEntries(clamp.map((f) => [f, 0])) });
  }

  /**
   * Soft-deletes: the object as it was before when this call deleted it, null when it was
   * missing or already deleted (so a side effect runs for exactly one of concurrent deletes).
   */
  async softDelete(id: string, fields: Record<string, unknown> & { deletedAt: Date }): Promise<T | null> {
    const current = await this.byId(id);
    if (!current || current.deletedAt) return null;
    const before = await this.model
      .findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: 'before' })
      .select(this.hiddenFields.map((f) => `+${f}`).join(' '))
      .lean<T>();
    if (!before) return null;
    if (before.deletedAt) {
      // Another request deleted it in between: keep its timestamp.
      await this.model.updateOne({ _id: id }, { $set: { deletedAt: before.deletedAt } });
      return null;
    }
    return before;
  }

  /** Un-deletes; the object after, or null when it was not deleted. */
  async restore(id: string, fields: Record<string, unknown> = {}): Promise<T | null> {
    const current = await this.byId(id);
    if (!current?.deletedAt) return null;
    return this.set(id, { ...fields, deletedAt: null }, ['deletedBy']);
  }

  /**
   * Sets fields of the author copy (`actor.name`, `actor.icon`) on everything an actor wrote. The
   * ids are found by a read (a scan on FerretDB, which never holds the write queue), then set by
   * `_id`, WRITE_CHUNK at a time; an `updateMany` held every other write of the process behind
   * its scan.
   */
  async refreshActorCopy(actorId: string, set: Record<string, string>): Promise<void> {
    const rows = await this.model.find({ actorId }, { _id: 1 }).lean<Array<{ _id: string }>>();
    for (let i = 0; i < rows.length; i += WRITE_CHUNK)
      await this.model.bulkWrite(
        rows
          .slice(i, i + WRITE_CHUNK)
          .map((r) => ({ updateOne: { filter: { _id: r._id }, update: { $set: set } } })),
        { ordered: false },
      );
  }

  /** Removes objects soft-deleted before `cutoff` for good (the GC); their ids. */
  async purgeDeletedBefore(cutoff: Date): Promise<string[]> {
    const old = { deletedAt: { $ne: null, $lt: cutoff } };
    const rows = await this.model.find(old, { id: 1 }).lean<Array<{ id: string }>>();
    if (rows.length) await this.model.deleteMany(old);
    return rows.map((r) => r.id);
  }

  /** Live items directly under any of `parents` (folder trees of pages and bookmarks). */
  async childrenIn(
    parentField: 'parentFolder' | 'parentId',
    parents: string[],
    ownerId?: string,
  ): Promise<T[]> {
    if (!parents.length) return [];
    return this.findAll({
      [parentField]: parents.length === 1 ? parents[0] : { $in: parents },
      ...(ownerId ? { actorId: ownerId } : {}),
      deletedAt: null,
    });
  }

  /** Moves the reaction state by {emoji: +1|-1}; the state after. */
  async reactDelta(id: string, delta: Record<string, number>): Promise<ReactState> {
    return applyReactDelta(this.model, id, delta);
  }

  async hardDelete(id: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id })).deletedCount === 1;
  }

  /**
   * A sorted, skipped, limited page with the filter's total. This scans on FerretDB: it serves
   * admin lists and small collections, never a route the benchmarks hold to O(page). The sort is
   * made total (`totalSort`: ties broken by `_id`), so consecutive pages partition the list.
   */
  protected async page(
    filter: Record<string, unknown>,
    req: PageRequest,
    sort: Record<string, 1 | -1>,
    projection?: Record<string, number>,
  ): Promise<FoundRows<T>> {
    const [total, items] = await Promise.all([
      this.model.countDocuments(filter),
      this.model
        .find(filter, projection ?? { __v: 0 })
        .sort(totalSort(sort))
        .skip(req.skip)
        .limit(req.limit)
        .lean<T[]>(),
    ]);
    return { total, items };
  }

  protected async findAll(
    filter: Record<string, unknown>,
    projection?: Record<string, number>,
  ): Promise<T[]> {
    return this.model.find(filter, projection ?? { __v: 0 }).lean<T[]>();
  }
}
