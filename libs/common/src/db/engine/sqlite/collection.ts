/**
 * One collection on SQLite: a table `(_id TEXT PRIMARY KEY, doc BLOB)` holding JSONB, with the
 * declared indexes on field expressions. Reads are single statements; every change runs in the
 * connection's write transaction of the turn (batch.ts: read, apply the update in JavaScript, write
 * back, in a savepoint of its own), which SQLite serialises across every connection and process on
 * the file, so no update is ever lost. node:sqlite is synchronous, so no other change of this
 * process runs in the middle of one.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  applyUpdate,
  checkKeyset,
  checkUniqueFields,
  checkUpdate,
  project,
  upsertDocument,
} from '../documents';
import { assertCovered } from '../coverage';
import {
  DuplicateKeyError,
  PortUsageError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Change,
  type Sort,
  type Update,
  type UpdateResult,
} from '../port';
import type { CommitBatch } from './batch';
import { decodeDoc, encodeDoc } from './codec';
import { incrementInPlace } from './increment';
import { Statements } from './statements';
import { idAlone, keyset, orderBy, quoteName, where } from './sql';

/** SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE. */
const DUPLICATE_CODES = new Set([1555, 2067]);

function isDuplicate(err: unknown): boolean {
  return DUPLICATE_CODES.has((err as { errcode?: number }).errcode ?? 0);
}

export interface SqliteCollectionOptions {
  db: DatabaseSync;
  spec: CollectionSpec;
  checkIndexes: boolean;
  /** The connection's write transaction of the turn, shared by its collections. */
  batch: CommitBatch;
  /** What a write waits for before it starts, when anything (the checkpoint thread's drain). */
  gate?: () => Promise<void> | undefined;
}

export class SqliteCollection<T extends Doc> implements Collection<T> {
  readonly spec: CollectionSpec;
  private readonly table: string;
  private readonly checkIndexes: boolean;
  private readonly batch: CommitBatch;
  private readonly gate: (() => Promise<void> | undefined) | undefined;
  private readonly statements: Statements;

  constructor(opts: SqliteCollectionOptions) {
    this.spec = opts.spec;
    this.table = quoteName(opts.spec.name);
    this.checkIndexes = opts.checkIndexes;
    this.batch = opts.batch;
    this.statements = new Statements(opts.db);
    this.gate = opts.gate;
  }

  /**
   * Runs `fn` in the turn's write transaction, once the connection may write (checkpointer.ts);
   * resolves after the commit. A unique violation becomes DuplicateKeyError.
   */
  private change<R>(fn: () => R, oneChange = false): Promise<R> {
    const run = () =>
      this.batch.run(fn, oneChange).catch((err: unknown) => {
        throw isDuplicate(err) ? new DuplicateKeyError(this.spec.name) : err;
      });
    const gate = this.gate?.();
    return gate ? gate.then(run) : run();
  }

  private prepare(sql: string): StatementSync {
    return this.statements.get(sql);
  }

  private covered(filter: Filter, sort?: Sort): void {
    if (this.checkIndexes) assertCovered(this.spec, filter, sort);
  }

  private select(filter: Filter, opts: FindOptions & { columns?: string } = {}): T[] {
    checkKeyset(opts.sort, opts.after);
    this.covered(filter, opts.sort);
    const w = where(filter);
    const sql = [w.sql];
    const params: SQLInputValue[] = [...w.params];
    if (opts.after) {
      const k = keyset(opts.sort!, opts.after);
      sql.push(k.sql);
      params.push(...k.params);
    }
    let tail = orderBy(opts.sort);
    if (opts.limit !== undefined || opts.skip) {
      // SQLite binds integers up to 2^63; a page far past the end (spec 1.5 takes any page) is
      // simply empty, so offsets and limits are held to whole numbers it can take.
      const whole = (n: number) => Math.min(Math.max(0, Math.floor(n)), Number.MAX_SAFE_INTEGER);
      tail += ' LIMIT ? OFFSET ?';
      params.push(opts.limit === undefined ? -1 : whole(opts.limit), whole(opts.skip ?? 0));
    }
    const rows = this.prepare(
      `SELECT json(doc) AS doc FROM ${this.table} WHERE ${sql.join(' AND ')} ${tail}`,
    ).all(...params) as Array<{ doc: string }>;
    return rows.map((r) => project(decodeDoc<T>(r.doc, this.spec), opts.fields));
  }

  private checkInsert(doc: T): void {
    if (typeof doc._id !== 'string' || !doc._id) throw new PortUsageError('a document needs a string _id');
    checkUniqueFields(this.spec, doc);
  }

  private insertRow(doc: T): void {
    this.checkInsert(doc);
    this.prepare(`INSERT INTO ${this.table} (_id, doc) VALUES (?, jsonb(?))`).run(doc._id, encodeDoc(doc));
  }

  private replaceRow(doc: T): void {
    checkUniqueFields(this.spec, doc);
    this.prepare(`UPDATE ${this.table} SET doc = jsonb(?) WHERE _id = ?`).run(encodeDoc(doc), doc._id);
  }

  /** Deletes the document with this `_id`; how many went (0 or 1). */
  private deleteRow(id: string): number {
    return Number(this.prepare(`DELETE FROM ${this.table} WHERE _id = ?`).run(id).changes);
  }

  insertOne(doc: T): Promise<void> {
    return this.change(() => this.insertRow(doc), true);
  }

  insertMany(docs: readonly T[]): Promise<void> {
    // Ordered, as MongoDB's: the documents before a duplicate stay inserted.
    return this.change(() => {
      for (let i = 0; i < docs.length; i++) {
        try {
          this.insertRow(docs[i]!);
        } catch (err) {
          if (!isDuplicate(err)) throw err;
          return i;
        }
      }
      return undefined;
    }).then((failedAt) => {
      if (failedAt !== undefined) throw new DuplicateKeyError(this.spec.name, failedAt);
    });
  }

  insertEach(docs: readonly T[]): Promise<boolean[]> {
    return this.change(() => {
      for (const d of docs) this.checkInsert(d);
      if (!docs.length) return [];
      // One transaction: a duplicate fails only its own statement, the others stay.
      return docs.map((d) => {
        try {
          this.insertRow(d);
          return true;
        } catch (err) {
          if (isDuplicate(err)) return false;
          throw err;
        }
      });
    });
  }

  findOne(filter: Filter, opts: FindOptions = {}): Promise<T | null> {
    return Promise.resolve().then(() => this.select(filter, { ...opts, limit: 1 })[0] ?? null);
  }

  find(filter: Filter, opts: FindOptions = {}): Promise<T[]> {
    return Promise.resolve().then(() => this.select(filter, opts));
  }

  count(filter: Filter): Promise<number> {
    return Promise.resolve().then(() => {
      this.covered(filter);
      const w = where(filter);
      const row = this.prepare(`SELECT count(*) AS n FROM ${this.table} WHERE ${w.sql}`).get(...w.params) as {
        n: number;
      };
      return row.n;
    });
  }

  private changeInTransaction(
    filter: Filter,
    update: Update,
    upsert: boolean,
    sort?: Sort,
  ): [T | null, T | null] {
    const found = this.select(filter, { limit: 1, ...(sort ? { sort } : {}) })[0];
    if (!found) {
      if (!upsert) return [null, null];
      const doc = upsertDocument<T>(filter, update);
      this.insertRow(doc);
      return [null, doc];
    }
    const next = applyUpdate(found, update, false);
    this.replaceRow(next);
    return [found, next];
  }

  /**
   * The change of updateOne and updateEach: a counter moved in place when it can be (increment.ts:
   * no read), else read, applied and written back.
   */
  private updateInTransaction(filter: Filter, update: Update, upsert: boolean, sort?: Sort): UpdateResult {
    const st = incrementInPlace(this.table, this.spec, filter, update);
    if (st && Number(this.prepare(st.sql).run(...st.params).changes) === 1)
      return { matched: 1, upserted: false };
    const [before, after] = this.changeInTransaction(filter, update, upsert, sort);
    return { matched: before ? 1 : 0, upserted: !before && !!after };
  }

  updateEach(changes: readonly Change[]): Promise<UpdateResult[]> {
    return this.change(() => {
      for (const c of changes) checkUpdate(c.update);
      if (!changes.length) return [];
      return changes.map((c) => this.updateInTransaction(c.filter, c.update, !!c.upsert));
    });
  }

  updateOne(
    filter: Filter,
    update: Update,
    opts: { upsert?: boolean; sort?: Sort } = {},
  ): Promise<UpdateResult> {
    return this.change(() => {
      checkUpdate(update);
      return this.updateInTransaction(filter, update, !!opts.upsert, opts.sort);
    }, true);
  }

  findOneAndUpdate(
    filter: Filter,
    update: Update,
    opts: { upsert?: boolean; returning?: 'before' | 'after'; sort?: Sort } = {},
  ): Promise<T | null> {
    return this.change(() => {
      checkUpdate(update);
      const [before, after] = this.changeInTransaction(filter, update, !!opts.upsert, opts.sort);
      return opts.returning === 'before' ? before : after;
    }, true);
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    checkUpdate(update);
    return this.change(() => {
      const found = this.select(filter);
      for (const doc of found) this.replaceRow(applyUpdate(doc, update, false));
      return found.length;
    });
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.change(() => {
      // By key alone (an outbox row confirmed, a list entry removed): one statement, no read.
      const id = idAlone(filter);
      if (id !== undefined) return this.deleteRow(id);
      const found = this.select(filter, { limit: 1, fields: [] })[0];
      if (found) this.deleteRow(found._id);
      return found ? 1 : 0;
    }, true);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.change(() => {
      this.covered(filter);
      const w = where(filter);
      return Number(this.prepare(`DELETE FROM ${this.table} WHERE ${w.sql}`).run(...w.params).changes);
    }, true);
  }

  findOneAndDelete(filter: Filter, opts: { sort?: Sort } = {}): Promise<T | null> {
    return this.change(() => {
      const found = this.select(filter, { limit: 1, ...(opts.sort ? { sort: opts.sort } : {}) })[0] ?? null;
      if (found) this.deleteRow(found._id);
      return found;
    }, true);
  }

  async *scan(batch = 500): AsyncIterable<T[]> {
    let after: string | undefined;
    for (;;) {
      const page = this.select(after === undefined ? {} : { _id: { $gt: after } }, {
        sort: [['_id', 1]],
        limit: batch,
      });
      if (!page.length) return;
      yield page;
      after = page[page.length - 1]!._id;
      await Promise.resolve();
    }
  }

  clear(): Promise<void> {
    return this.change(() => {
      this.prepare(`DELETE FROM ${this.table}`).run();
    }, true);
  }
}
