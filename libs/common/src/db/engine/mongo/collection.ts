/**
 * One collection on MongoDB, through the driver mongoose holds: the port's filters and updates
 * are a subset of MongoDB's own, checked by the port and passed as they are; keyset paging
 * becomes an `$or` over the sort fields; every order ends with `_id` (as on SQLite) so that pages
 * never overlap. On FerretDB, writes pass through the adapter's queue (ferretdb.ts).
 */
import type { mongo } from 'mongoose';
import {
  applyUpdate,
  checkKeyset,
  checkUniqueFields,
  checkUniqueUpdate,
  checkUpdate,
  parseFilter,
  project,
  upsertDocument,
} from '../documents';
import { assertCovered } from '../coverage';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Change,
  type Scalar,
  type Sort,
  type Update,
  type UpdateResult,
} from '../port';
import { FERRETDB_BATCH } from './ferretdb';

type Queue = <R>(fn: () => Promise<R>) => Promise<R>;

export interface MongoCollectionOptions {
  db: mongo.Db;
  spec: CollectionSpec;
  checkIndexes: boolean;
  /** FerretDB only: bulk writes in small batches, and one write at a time when given a queue. */
  ferretdb?: { queue?: Queue };
}

function isDuplicate(err: unknown): boolean {
  if ((err as { code?: number }).code === 11000) return true;
  // FerretDB 1.24 answers an update that breaks a unique index with PostgreSQL's error in the
  // message and no code (an insert gets 11000): the stand-in's defect, read here only.
  return err instanceof Error && /SQLSTATE 23505/.test(err.message);
}

/** The filter as MongoDB takes it (already in its language once checked). */
function toMongo(filter: Filter): mongo.Filter<Doc> {
  parseFilter(filter);
  return filter;
}

function keysetFilter(sort: Sort, after: readonly Scalar[]): mongo.Filter<Doc> {
  const alts = sort.map(([path, dir], i) => {
    const alt: Record<string, unknown> = {};
    sort.slice(0, i).forEach(([p], j) => (alt[p] = after[j]));
    alt[path] = { [dir === 1 ? '$gt' : '$lt']: after[i] };
    return alt;
  });
  return { $or: alts };
}

/** Whether an update pulls array elements by a match on their fields. */
function pullsByMatch(update: Update): boolean {
  return Object.values(update.$pull ?? {}).some(
    (v) => typeof v === 'object' && v !== null && !(v instanceof Date),
  );
}

function sortSpec(sort: Sort | undefined): mongo.Sort {
  const out: Record<string, 1 | -1> = {};
  for (const [p, d] of sort ?? []) out[p] = d;
  if (!('_id' in out)) out._id = 1;
  return out;
}

export class MongoCollection<T extends Doc> implements Collection<T> {
  readonly spec: CollectionSpec;
  private readonly c: mongo.Collection<Doc>;
  private readonly checkIndexes: boolean;
  private readonly queue: Queue;
  private readonly batch: number;
  private readonly ferretdb: boolean;

  constructor(opts: MongoCollectionOptions) {
    this.spec = opts.spec;
    // An undefined value writes no field, as on SQLite (JSON has no undefined); the driver's
    // default would store null, which `$exists` and equality tell apart.
    this.c = opts.db.collection<Doc>(opts.spec.name, { ignoreUndefined: true });
    this.checkIndexes = opts.checkIndexes;
    this.queue = opts.ferretdb?.queue ?? ((fn) => fn());
    this.batch = opts.ferretdb ? FERRETDB_BATCH : 1000;
    this.ferretdb = !!opts.ferretdb;
  }

  private covered(filter: Filter, sort?: Sort): void {
    if (this.checkIndexes) assertCovered(this.spec, filter, sort);
  }

  /** Runs a write (queued on FerretDB); a duplicate key becomes DuplicateKeyError. */
  private async write<R>(fn: () => Promise<R>): Promise<R> {
    try {
      return await this.queue(fn);
    } catch (err) {
      if (isDuplicate(err)) throw new DuplicateKeyError(this.spec.name);
      throw err;
    }
  }

  async insertOne(doc: T): Promise<void> {
    checkUniqueFields(this.spec, doc);
    await this.write(() => this.c.insertOne({ ...doc }));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    for (const d of docs) checkUniqueFields(this.spec, d);
    for (let i = 0; i < docs.length; i += this.batch) {
      const chunk = docs.slice(i, i + this.batch).map((d) => ({ ...d }));
      try {
        await this.queue(() => this.c.insertMany(chunk, { ordered: true }));
      } catch (err) {
        if (!isDuplicate(err)) throw err;
        const at = (err as { writeErrors?: Array<{ index: number }> }).writeErrors?.[0]?.index;
        throw new DuplicateKeyError(this.spec.name, at === undefined ? undefined : i + at);
      }
    }
  }

  async insertEach(docs: readonly T[]): Promise<boolean[]> {
    for (const d of docs) checkUniqueFields(this.spec, d);
    const stored = docs.map(() => true);
    for (let i = 0; i < docs.length; i += this.batch) {
      const chunk = docs.slice(i, i + this.batch).map((d) => ({ ...d }));
      try {
        // Unordered: a duplicate skips only its own document.
        await this.queue(() => this.c.insertMany(chunk, { ordered: false }));
      } catch (err) {
        const errors = (err as { writeErrors?: Array<{ index: number; code?: number }> }).writeErrors;
        if (!errors?.length || errors.some((e) => e.code !== 11000)) throw err;
        for (const e of errors) stored[i + e.index] = false;
      }
    }
    return stored;
  }

  private cursor(filter: Filter, opts: FindOptions) {
    checkKeyset(opts.sort, opts.after);
    this.covered(filter, opts.sort);
    const base = toMongo(filter);
    const query = opts.after ? { $and: [base, keysetFilter(opts.sort!, opts.after)] } : base;
    let cur = this.c.find(query, {
      sort: sortSpec(opts.sort),
      ...(opts.fields ? { projection: Object.fromEntries(opts.fields.map((f) => [f, 1])) } : {}),
    });
    if (opts.skip) cur = cur.skip(opts.skip);
    if (opts.limit !== undefined) cur = cur.limit(opts.limit);
    return cur;
  }

  async findOne(filter: Filter, opts: FindOptions = {}): Promise<T | null> {
    const [doc] = await this.cursor(filter, { ...opts, limit: 1 }).toArray();
    return doc ? project(doc as unknown as T, opts.fields) : null;
  }

  async find(filter: Filter, opts: FindOptions = {}): Promise<T[]> {
    // MongoDB reads a limit of 0 as "no limit"; the port means none (as SQLite does).
    if (opts.limit === 0) return [];
    return (await this.cursor(filter, opts).toArray()).map((d) => project(d as unknown as T, opts.fields));
  }

  count(filter: Filter): Promise<number> {
    this.covered(filter);
    return this.c.countDocuments(toMongo(filter));
  }

  private changeOne(
    filter: Filter,
    update: Update,
    opts: { upsert?: boolean; returning: 'before' | 'after'; sort?: Sort },
  ) {
    checkUpdate(update);
    this.covered(filter, opts.sort);
    checkUniqueUpdate(this.spec, update);
    if (opts.upsert) checkUniqueFields(this.spec, upsertDocument(filter, update)); // and names its _id
    if (this.ferretdb && pullsByMatch(update))
      return this.write(() => this.changeInProcess(filter, update, opts));
    return this.write(() =>
      this.c.findOneAndUpdate(toMongo(filter), update as mongo.UpdateFilter<Doc>, {
        upsert: !!opts.upsert,
        returnDocument: opts.returning,
        includeResultMetadata: true,
        ...(opts.sort ? { sort: sortSpec(opts.sort) } : {}),
      }),
    );
  }

  /**
   * FerretDB ignores a `$pull` condition on an element's fields: the change is made here instead
   * (read, apply, replace), inside the adapter's write queue, so nothing in this process writes
   * the document in between (FerretDB allows one process per database).
   */
  private async changeInProcess(
    filter: Filter,
    update: Update,
    opts: { returning: 'before' | 'after'; sort?: Sort },
  ): Promise<{ value: Doc | null; lastErrorObject?: { upserted?: unknown } }> {
    const [found] = await this.c
      .find(toMongo(filter), { sort: sortSpec(opts.sort) })
      .limit(1)
      .toArray();
    if (!found) return { value: null };
    const next = applyUpdate(found as Doc, update, false);
    await this.c.replaceOne({ _id: found._id }, next);
    return { value: opts.returning === 'before' ? found : next };
  }

  async updateOne(
    filter: Filter,
    update: Update,
    opts: { upsert?: boolean; sort?: Sort } = {},
  ): Promise<UpdateResult> {
    const res = await this.changeOne(filter, update, { ...opts, returning: 'before' });
    const upserted = res.lastErrorObject?.upserted !== undefined;
    return { matched: res.value ? 1 : 0, upserted };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    opts: { upsert?: boolean; returning?: 'before' | 'after'; sort?: Sort } = {},
  ): Promise<T | null> {
    const res = await this.changeOne(filter, update, { ...opts, returning: opts.returning ?? 'after' });
    return (res.value as unknown as T | null) ?? null;
  }

  /**
   * Each change on its own, one after another (two may name one document: an upsert, then an
   * increment), every one checked before the first is sent.
   */
  async updateEach(changes: readonly Change[]): Promise<UpdateResult[]> {
    for (const c of changes) {
      checkUpdate(c.update);
      checkUniqueUpdate(this.spec, c.update);
      this.covered(c.filter);
      if (c.upsert) checkUniqueFields(this.spec, upsertDocument(c.filter, c.update));
    }
    const out: UpdateResult[] = [];
    for (const c of changes) out.push(await this.updateOne(c.filter, c.update, { upsert: !!c.upsert }));
    return out;
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    checkUpdate(update);
    checkUniqueUpdate(this.spec, update);
    this.covered(filter);
    if (this.ferretdb && pullsByMatch(update)) {
      const ids = (await this.c.find(toMongo(filter), { projection: { _id: 1 } }).toArray()).map(
        (d) => d._id,
      );
      for (const _id of ids)
        await this.write(() => this.changeInProcess({ _id }, update, { returning: 'after' }));
      return ids.length;
    }
    const res = await this.write(() => this.c.updateMany(toMongo(filter), update as mongo.UpdateFilter<Doc>));
    return res.matchedCount;
  }

  async deleteOne(filter: Filter): Promise<number> {
    this.covered(filter);
    return (await this.write(() => this.c.deleteOne(toMongo(filter)))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.covered(filter);
    return (await this.write(() => this.c.deleteMany(toMongo(filter)))).deletedCount;
  }

  async findOneAndDelete(filter: Filter, opts: { sort?: Sort } = {}): Promise<T | null> {
    this.covered(filter, opts.sort);
    const doc = await this.write(() =>
      this.c.findOneAndDelete(toMongo(filter), opts.sort ? { sort: sortSpec(opts.sort) } : {}),
    );
    return (doc as unknown as T | null) ?? null;
  }

  async *scan(batch = 500): AsyncIterable<T[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.find(after === undefined ? {} : { _id: { $gt: after } }, {
        sort: [['_id', 1]],
        limit: batch,
      });
      if (!page.length) return;
      yield page;
      after = page[page.length - 1]!._id;
    }
  }

  async clear(): Promise<void> {
    await this.write(() => this.c.deleteMany({}));
  }
}
