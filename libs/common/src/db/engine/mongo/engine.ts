/**
 * The MongoDB adapter of the engine port, for the cluster: mongoose holds the connection (the
 * design card's choice) and the adapter speaks to the driver underneath it. Every collection and
 * declared index is created by `ensure`; single-document updates are MongoDB's own atomic ones, no
 * transactions, no write queue. On FerretDB (CI's stand-in) the adapter turns on what
 * ferretdb.ts describes. See ADR 0013.
 */
import type { mongo } from 'mongoose';
import type { CollectionSpec, Doc, Engine } from '../port';
import { PortUsageError } from '../port';
import { indexName } from '../sqlite/sql';
import { MongoCollection } from './collection';
import { LEASE_COLLECTION, claimSoleWriter, isFerretDB, writeQueue } from './ferretdb';

export interface MongoOptions {
  url: string;
  /** Refuse queries no declared index serves (coverage.ts); the test suites turn it on. */
  checkIndexes?: boolean;
  serverSelectionTimeoutMs?: number;
}

/** Collection names; a leading `_` marks a restore's staging and retired ones. */
const NAME_RE = /^[a-z_][a-z0-9_]*$/;

/** What an engine over a connection does on FerretDB (ferretdb.ts). */
export interface FerretDBMode {
  /** Queue this engine's writes (not when the connection already queues them). */
  queue: boolean;
}

/** MongoDB's codes for a collection created and an index dropped by someone else first. */
const NAMESPACE_EXISTS = 48;
const INDEX_NOT_FOUND = 27;
/** Rethrows an error unless it carries `code`. */
const unless =
  (code: number) =>
  (err: unknown): void => {
    if ((err as { code?: number }).code !== code) throw err;
  };

/**
 * The port over a database that is already connected. `ferretdb` turns on the stand-in's
 * workarounds; the connection's owner decides (openMongo detects it and takes the lease).
 */
export function mongoEngine(
  db: mongo.Db,
  opts: { checkIndexes?: boolean; ferretdb?: FerretDBMode; onClose?: () => Promise<void> } = {},
): Engine {
  const queue = opts.ferretdb?.queue ? writeQueue() : undefined;
  const collections = new Map<string, MongoCollection<Doc>>();

  const ensureOne = async (spec: CollectionSpec) => {
    if (!NAME_RE.test(spec.name)) throw new PortUsageError(`not a collection name: ${spec.name}`);
    // Several processes may ensure at once (they start together): another one's create or drop
    // landing first is success.
    const existing = await db.listCollections({ name: spec.name }).toArray();
    if (!existing.length) await db.createCollection(spec.name).catch(unless(NAMESPACE_EXISTS));
    const c = db.collection(spec.name);
    const wanted = new Set(spec.indexes.map((ix) => indexName(spec.name, ix)));
    // Indexes this code no longer declares go (a renamed collection's too: they carry its old name).
    for (const ix of await c.indexes())
      if (ix.name && ix.name !== '_id_' && !wanted.has(ix.name))
        await c.dropIndex(ix.name).catch(unless(INDEX_NOT_FOUND));
    for (const ix of spec.indexes)
      await c.createIndex(Object.fromEntries(ix.fields.map(([f, d]) => [f, d])), {
        name: indexName(spec.name, ix),
        ...(ix.unique ? { unique: true } : {}),
        ...(ix.sparse ? { sparse: true } : {}),
      });
  };

  return {
    kind: 'mongodb',
    async ensure(specs) {
      for (const spec of specs) await ensureOne(spec);
    },
    collection<T extends Doc>(spec: CollectionSpec) {
      let c = collections.get(spec.name);
      if (!c) {
        c = new MongoCollection<Doc>({
          db,
          spec,
          checkIndexes: !!opts.checkIndexes,
          ...(opts.ferretdb ? { ferretdb: { ...(queue ? { queue } : {}) } } : {}),
        });
        collections.set(spec.name, c);
      }
      return c as unknown as MongoCollection<T>;
    },
    async ping() {
      try {
        await db.command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
    async names() {
      const list = await db.listCollections({}, { nameOnly: true }).toArray();
      return (
        list
          .map((c) => c.name)
          // The FerretDB lease belongs to the adapter: a backup or a migration must not carry it.
          .filter((n) => !n.startsWith('system.') && n !== LEASE_COLLECTION)
          .sort()
      );
    },
    async rename(from, to) {
      if (!NAME_RE.test(to)) throw new PortUsageError(`not a collection name: ${to}`);
      await db.renameCollection(from, to);
    },
    async drop(name) {
      if ((await db.listCollections({ name }, { nameOnly: true }).toArray()).length)
        await db.collection(name).drop();
    },
    async close() {
      await opts.onClose?.();
    },
  };
}

/** Connects to `url` and opens the port over it (on FerretDB: queue, batches and the lease). */
export async function openMongo(opts: MongoOptions): Promise<Engine & { ferretdb: boolean }> {
  // Loaded here: a process on SQLite never holds mongoose and the driver.
  const { default: mongoose } = await import('mongoose');
  const conn = await mongoose
    .createConnection(opts.url, { serverSelectionTimeoutMS: opts.serverSelectionTimeoutMs ?? 10_000 })
    .asPromise();
  const db = conn.db!;
  const ferretdb = await isFerretDB(db);
  let lease: { release(): Promise<void> } | undefined;
  try {
    lease = ferretdb ? await claimSoleWriter(db) : undefined;
  } catch (err) {
    await conn.close();
    throw err;
  }
  const engine = mongoEngine(db, {
    ...(opts.checkIndexes ? { checkIndexes: true } : {}),
    ...(ferretdb ? { ferretdb: { queue: true } } : {}),
    onClose: async () => {
      await lease?.release();
      await conn.close();
    },
  });
  return Object.assign(engine, { ferretdb });
}
