/**
 * Whole-collection access for backup and restore (decisions.md §8). Lists every collection the
 * database holds (other features add collections; a fixed list would miss them), streams their
 * documents with every BSON type kept (Int32 vs Double, Long, Decimal128, Binary, dates,
 * ObjectIds), and replaces collections by renaming freshly written ones into place.
 *
 * No transactions (FerretDB, MongoDB standalone): a restore writes each collection under a
 * staging name, then swaps names one collection at a time (`docs/adr/0007-backup-archive.md`).
 */
import type { Connection, mongo } from 'mongoose';
import { BACKUP_OWN_COLLECTIONS } from './backup-jobs';

/** Names a restore gives its staging and retired collections; never archived. */
export const STAGING_PREFIX = '__restore_';
export const RETIRED_PREFIX = '__retired_';

export interface IndexSpec {
  name: string;
  key: Record<string, number | string>;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Record<string, unknown>;
}

interface RawIndex {
  name: string;
  key: Record<string, number | string>;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Record<string, unknown>;
}

/** Read options that keep numeric and binary types exactly as stored. */
const RAW_TYPES = { promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true };

export class CollectionsRepository {
  constructor(private readonly conn: Connection) {}

  private get db(): mongo.Db {
    const db = this.conn.db;
    if (!db) throw new Error('database not connected');
    return db;
  }

  /** Every collection of the application, sorted: not system, staging or backup bookkeeping ones. */
  async applicationCollections(): Promise<string[]> {
    const own = new Set<string>(BACKUP_OWN_COLLECTIONS);
    return (await this.allNames())
      .filter((n) => !n.startsWith('system.') && !own.has(n) && !isScratch(n))
      .sort();
  }

  /** Staging and retired collections a restore left behind (a crash in the middle). */
  async scratchCollections(): Promise<string[]> {
    return (await this.allNames()).filter(isScratch);
  }

  private async allNames(): Promise<string[]> {
    const list = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return list.map((c) => c.name);
  }

  /** Secondary indexes, in a form createIndexes takes back (`_id_` always exists). */
  async indexesOf(name: string): Promise<IndexSpec[]> {
    const raw = (await this.db.collection(name).listIndexes().toArray()) as RawIndex[];
    return uniqueIndexes(raw.filter((i) => i.name !== '_id_')).map((i) => ({
      name: i.name,
      key: i.key,
      ...(i.unique ? { unique: true } : {}),
      ...(i.sparse ? { sparse: true } : {}),
      ...(typeof i.expireAfterSeconds === 'number' ? { expireAfterSeconds: i.expireAfterSeconds } : {}),
      ...(i.partialFilterExpression ? { partialFilterExpression: i.partialFilterExpression } : {}),
    }));
  }

  /** Every document of a collection, a batch at a time, in natural order (no sort: FerretDB would sort in memory). */
  documents(name: string): AsyncIterable<mongo.Document> {
    return this.db.collection(name).find({}, { ...RAW_TYPES, batchSize: 500 });
  }

  async count(name: string): Promise<number> {
    return this.db.collection(name).countDocuments({});
  }

  /** Drops a collection when it exists. */
  async drop(name: string): Promise<void> {
    if ((await this.allNames()).includes(name)) await this.db.collection(name).drop();
  }

  /** Creates an empty collection (so an archived empty collection is restored as one). */
  async create(name: string): Promise<void> {
    await this.db.createCollection(name);
  }

  /** Inserts documents exactly as given (types, `_id`s); no validation, no defaults. */
  async insertRaw(name: string, docs: mongo.Document[]): Promise<void> {
    if (docs.length) await this.db.collection(name).insertMany(docs, { ordered: true });
  }

  /**
   * Builds the indexes one by one; an index whose key the collection already has is not an
   * error (whoever built it first, it serves the same queries).
   */
  async createIndexes(name: string, specs: IndexSpec[]): Promise<void> {
    const coll = this.db.collection(name);
    for (const { key, ...opts } of uniqueIndexes(specs)) {
      try {
        await coll.createIndex(key as Record<string, mongo.IndexDirection>, opts);
      } catch (err) {
        const existing = (await coll.listIndexes().toArray()) as RawIndex[];
        if (!existing.some((e) => JSON.stringify(e.key) === JSON.stringify(key))) throw err;
      }
    }
  }

  /** Renames a collection; the target must not exist (FerretDB 1.24 has no `dropTarget`). */
  async rename(from: string, to: string): Promise<void> {
    await this.db.renameCollection(from, to);
  }

  async exists(name: string): Promise<boolean> {
    return (await this.allNames()).includes(name);
  }
}

/**
 * One spec per name and per key: FerretDB can list the same index twice when two processes
 * built it at once (Mongoose's autoIndex beside the start-up index build), and createIndexes
 * refuses a list holding the same key twice ("Identical index already exists").
 */
function uniqueIndexes<T extends { name: string; key: Record<string, number | string> }>(specs: T[]): T[] {
  const names = new Set<string>();
  const keys = new Set<string>();
  return specs.filter((s) => {
    const key = JSON.stringify(s.key);
    if (names.has(s.name) || keys.has(key)) return false;
    names.add(s.name);
    keys.add(key);
    return true;
  });
}

function isScratch(name: string): boolean {
  return name.startsWith(STAGING_PREFIX) || name.startsWith(RETIRED_PREFIX);
}
