/**
 * The engine port (issue 22, ADR 0013): the narrow set of operations every store is written
 * against, implemented natively by each engine's adapter (`sqlite/`, `mongo/`). Stores hold the
 * invariants and speak in intentions to their callers; underneath, they read and write documents
 * through this port only, so no engine-specific code lives outside an adapter.
 *
 * What the port deliberately leaves out, so that both engines can serve every operation from an
 * index and stay correct under concurrency:
 * - no multi-document transactions (MongoDB 7 without a replica set has none): every operation
 *   is atomic on one document; what must follow a write goes through the event outbox;
 * - no joins, no text search operator, no aggregation pipeline (an engine may offer a term
 *   index, `TermIndexSpec`, which a store uses when present and does without otherwise);
 * - no queries into arrays: a many-to-many relation is a collection of its own (a membership, a
 *   list entry), queried by its indexed fields;
 * - every query shape is backed by a declared index (checked: `coverage.ts`).
 */

/** A scalar a filter compares with. Dates are stored as dates (MongoDB) or ISO strings (SQLite). */
export type Scalar = string | number | boolean | null | Date;

/** A stored value: JSON plus Date. */
export type Value = Scalar | Value[] | { [key: string]: Value | undefined };

/**
 * Every document has a string `_id` (ids are minted by the stores, never by an engine); stores
 * describe the rest with their own record types.
 */
export interface Doc {
  _id: string;
}

export interface Range {
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
}

/**
 * A condition on one field (a dot path into nested objects):
 * - a scalar: equal (`null` matches a missing field too, as in MongoDB);
 * - `$in`: equal to one of the values; `$ne`: anything else, a missing field included;
 * - a range (`$gt`, `$gte`, `$lt`, `$lte`, combinable);
 * - `$exists`: the field is present (even as null) or absent.
 */
export type Condition = Scalar | { $in: Scalar[] } | { $ne: Scalar } | { $exists: boolean } | Range;

/** Every condition must hold (an implicit AND). */
export type Filter = Record<string, Condition>;

/**
 * Atomic changes to one document. `$max`/`$min` move a value only forward/back (a high-water
 * mark never rewinds); `$push` appends; `$pull` removes every element equal to the value, or,
 * given an object of field values, every element (an object) whose fields hold those values;
 * `$addToSet` appends unless already present; `$setOnInsert` applies only when an upsert inserts.
 * An undefined value (here or in an inserted document) writes no field, on every engine.
 */
export interface Update {
  $set?: Record<string, Value | undefined>;
  $unset?: Record<string, true>;
  $inc?: Record<string, number>;
  $max?: Record<string, Scalar>;
  $min?: Record<string, Scalar>;
  $push?: Record<string, Value>;
  $pull?: Record<string, Scalar | Record<string, Scalar>>;
  $addToSet?: Record<string, Scalar>;
  $setOnInsert?: Record<string, Value | undefined>;
}

export type Direction = 1 | -1;
export type Sort = ReadonlyArray<readonly [string, Direction]>;

export interface FindOptions {
  /** Fields in order; ties should end with `_id` so an order is total. */
  sort?: Sort;
  /** At most this many (0: none). */
  limit?: number;
  /** Offset paging (spec 1.5 collections); prefer `after` for long lists. */
  skip?: number;
  /**
   * Keyset paging: only documents strictly after this key in `sort` order (one value per sort
   * field, e.g. `[publishedAt, _id]` of the last item of the previous page).
   */
  after?: readonly Scalar[];
  /** Only these fields (and `_id`) are returned. */
  fields?: readonly string[];
}

/** One change of `updateEach`: as `updateOne(filter, update, { upsert })`. */
export interface Change {
  filter: Filter;
  update: Update;
  upsert?: boolean;
}

export interface UpdateResult {
  matched: number;
  /** Whether an upsert inserted a document. */
  upserted: boolean;
}

/** An index, with the query it serves (style.md: every index names its query). */
export interface IndexSpec {
  fields: ReadonlyArray<readonly [string, Direction]>;
  /**
   * No two documents hold one value. Every document then holds the index's fields, not null
   * (PortUsageError otherwise): on MongoDB a missing field counts as null, so two documents without
   * it would collide there, while SQLite never compares NULLs. With `sparse`, a field may be absent
   * (never null).
   */
  unique?: boolean;
  /**
   * Only documents holding the field are indexed, so a unique index leaves every document without
   * it free (an optional e-mail address). Store the field absent, never null: MongoDB indexes a
   * null, SQLite (whose unique indexes never compare NULLs) does not.
   */
  sparse?: boolean;
  /** Which store query this index serves. */
  serves: string;
}

/**
 * A term index (ADR 0033), an optional capability: the strings of one array field of every
 * document, each qualified by a string field, for "the documents holding this term, newest
 * first". An engine that offers it (`Engine.findByTerm`: SQLite, with FTS5) keeps it in the same
 * transaction as every write of a document; one that does not (MongoDB) ignores it, and the store
 * keeps its own term rows there instead.
 */
export interface TermIndexSpec {
  /** The array of strings whose elements are the terms (any characters). */
  terms: string;
  /** A string field qualifying every term of a document (a kind): queries name the values. */
  within: string;
  /** The date field results come newest first by (ties by `_id`, descending). */
  newest: string;
  /** Which store query this index serves. */
  serves: string;
}

/** A term index query: documents holding `term` whose `within` field is one of `within`. */
export interface TermQuery {
  term: string;
  within: readonly string[];
  /** At most this many, the newest. */
  limit: number;
}

export interface CollectionSpec {
  /** `[a-z_][a-z0-9_]*`: a table name on SQLite, a collection name on MongoDB. */
  name: string;
  indexes: readonly IndexSpec[];
  /** Paths holding dates (through arrays too): SQLite stores them as ISO strings and gives back Dates. */
  dates?: readonly string[];
  /** Kept by engines that offer term indexes (`Engine.findByTerm`), ignored by the others. */
  termIndex?: TermIndexSpec;
}

export interface Collection<T extends Doc = Doc> {
  readonly spec: CollectionSpec;
  /** Fails with `DuplicateKeyError` when a unique index (or `_id`) already holds the value. */
  insertOne(doc: T): Promise<void>;
  /** In order; stops at the first duplicate (`DuplicateKeyError.index` names it). */
  insertMany(docs: readonly T[]): Promise<void>;
  /**
   * Inserts each document on its own: one whose `_id` or unique index value is already held is
   * skipped, the others are stored all the same. Says, in order, which this call stored. Each
   * insert is atomic, not all of them as one (an engine may commit them together: SQLite does).
   */
  insertEach(docs: readonly T[]): Promise<boolean[]>;
  findOne(filter: Filter, opts?: FindOptions): Promise<T | null>;
  find(filter: Filter, opts?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** The first match (by `sort`, else any) changed atomically; `upsert` inserts when none matches. */
  updateOne(filter: Filter, update: Update, opts?: { upsert?: boolean; sort?: Sort }): Promise<UpdateResult>;
  /** Like updateOne, returning the document after (default) or before the change. */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    opts?: { upsert?: boolean; returning?: 'before' | 'after'; sort?: Sort },
  ): Promise<T | null>;
  /**
   * Several `updateOne`s in one call, in order, each atomic on its document (not all of them as
   * one; an engine may commit them together: SQLite does). Results in order.
   */
  updateEach(changes: readonly Change[]): Promise<UpdateResult[]>;
  /** Each matching document changed atomically (not all of them as one). Returns how many. */
  updateMany(filter: Filter, update: Update): Promise<number>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  findOneAndDelete(filter: Filter, opts?: { sort?: Sort }): Promise<T | null>;
  /** Every document in `_id` order, a batch at a time (backups). */
  scan(batch?: number): AsyncIterable<T[]>;
  /** Removes every document (restores, tests). */
  clear(): Promise<void>;
}

export type EngineKind = 'sqlite' | 'mongodb';

export interface Engine {
  readonly kind: EngineKind;
  /** Creates what `specs` need (tables, collections, indexes); safe to run at every start. */
  ensure(specs: readonly CollectionSpec[]): Promise<void>;
  collection<T extends Doc>(spec: CollectionSpec): Collection<T>;
  /** Whether the engine answers (GET /health). */
  ping(): Promise<boolean>;
  /** Every collection the engine holds, sorted (backups: staging and retired ones included). */
  names(): Promise<string[]>;
  /** Renames a collection; `to` must not exist. Its documents and indexes go with it. */
  rename(from: string, to: string): Promise<void>;
  /** Drops a collection and its indexes; nothing when it does not exist. */
  drop(name: string): Promise<void>;
  /**
   * Present when the engine keeps term indexes (`CollectionSpec.termIndex`): the `_id`s of the
   * collection's documents matching the query, newest first, ties by `_id` descending.
   */
  findByTerm?(spec: CollectionSpec, query: TermQuery): Promise<string[]>;
  close(): Promise<void>;
}

/** A unique index (or `_id`) already holds the value. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    /** Position in an insertMany, when known. */
    readonly index?: number,
  ) {
    super(`duplicate key in ${collection}`);
    this.name = 'DuplicateKeyError';
  }
}

/** The database is held by another process (an engine opened for exclusive use: a migration). */
export class DatabaseInUse extends Error {
  constructor(readonly location: string) {
    super(`${location} is in use by another process (a running server?)`);
    this.name = 'DatabaseInUse';
  }
}

/** A store asked for something the port does not allow (a bug, never the client's input). */
export class PortUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortUsageError';
  }
}
