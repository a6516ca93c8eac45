/**
 * The MongoDB connection (mongoose). Commands fail fast while the database is away (no
 * buffering, short server selection), the driver reconnects by itself, and `ping` backs the
 * health probe.
 */
import mongoose, { type Connection } from 'mongoose';
import type { Logger } from '../logger';
import { mongoEngine } from './engine/mongo/engine';
import type { Engine } from './engine/port';
import { serializeWrites } from './write-gate';

export interface Database {
  conn: Connection;
  /**
   * The engine port over this connection (ADR 0013): the stores that have moved onto the port
   * use it, the others still use the models. On FerretDB the connection's write gate already
   * queues its writes.
   */
  engine: Engine;
  /** True when a ping answered within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * Adds the engine-level indexes the database engine needs beyond the models' own (the
   * embedded FerretDB's `_id` expression indexes, see engine-indexes.ts). Call it after
   * collections are created: after syncIndexes at boot, after a restore recreates them.
   * A no-op on MongoDB.
   */
  ensureEngineIndexes(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Operations per write command on FerretDB. FerretDB 1.24 never answers a bulk `update` or
 * `delete` command of 100 operations or more (measured on its SQLite and PostgreSQL handlers:
 * 99 take 0.2 s, 100 hang, and the connection with them); a group commit, a fan-out or a
 * start-up pass can reach that. The driver splits a bulk write into commands of at most the
 * server's `maxWriteBatchSize` and merges their results and errors, so this caps what it reads.
 */
export const FERRETDB_WRITE_BATCH = 50;

type HelloSource = { lastHello(): Record<string, unknown> };

/**
 * Makes the driver split bulk writes (and `insertMany`) into commands of FERRETDB_WRITE_BATCH
 * operations: the topology's last `hello`, which is where the driver reads the limit, answers
 * with the cap (the driver's private topology API, pinned by the version in package-lock.json
 * and checked by test/integration/db/write-batches.test.ts).
 */
function capWriteBatches(conn: Connection): void {
  const topology = (conn.getClient() as unknown as { topology?: HelloSource }).topology;
  if (!topology || typeof topology.lastHello !== 'function') return;
  const lastHello = topology.lastHello.bind(topology);
  topology.lastHello = () => {
    const hello = lastHello();
    return Object.assign(Object.create(Object.getPrototypeOf(hello) as object) as object, hello, {
      maxWriteBatchSize: FERRETDB_WRITE_BATCH,
    });
  };
}

/** Whether the server is FerretDB (MongoDB's `buildInfo` has no `ferretdbVersion`). */
async function isFerretDB(conn: Connection): Promise<boolean> {
  const info = await conn.db!.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}

export interface ConnectOptions {
  url: string;
  logger: Logger;
  /** How long start-up keeps retrying the first connection. */
  initialRetryMs?: number;
  /** Backs Database.ensureEngineIndexes (standalone passes the embedded FerretDB's). */
  ensureEngineIndexes?: () => Promise<void>;
  /**
   * One write at a time (write-gate.ts): FerretDB's updates are not atomic, so concurrent updates
   * of one document lose all but one. Queued whenever the server is FerretDB (its `buildInfo`
   * names a `ferretdbVersion`), embedded or not; `true` forces it.
   */
  serializeWrites?: boolean;
  /** Refuse store queries no declared index serves (the port's coverage check; tests). */
  checkIndexes?: boolean;
}

export async function connectDatabase({
  url,
  logger,
  initialRetryMs = 60_000,
  ensureEngineIndexes = () => Promise.resolve(),
  serializeWrites: queueWrites = false,
  checkIndexes = false,
}: ConnectOptions): Promise<Database> {
  const conn = mongoose.createConnection(url, {
    bufferCommands: false,
    autoIndex: true,
    serverSelectionTimeoutMS: 3000,
    heartbeatFrequencyMS: 2000,
    maxPoolSize: 20,
  });
  conn.on('disconnected', () => logger.warn('database disconnected'));
  conn.on('reconnected', () => logger.info('database reconnected'));
  conn.on('error', (err: Error) => logger.error({ err: err.message }, 'database error'));
  const deadline = Date.now() + initialRetryMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await conn.asPromise();
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      logger.warn({ attempt, err: (err as Error).message }, 'database not reachable yet, retrying');
      await new Promise((r) => setTimeout(r, Math.min(2000, 200 * attempt)));
      await conn.openUri(url).catch(() => undefined);
    }
  }
  // Before any model touches a collection: every collection is taken from this Db lazily.
  const ferretdb = !!conn.db && (queueWrites || (await isFerretDB(conn)));
  if (ferretdb) {
    serializeWrites(conn.db);
    capWriteBatches(conn);
    if (!queueWrites) logger.info('FerretDB: this process queues its writes one at a time (ADR 0011)');
  }
  return {
    conn,
    // On FerretDB the port queues its own writes too: a change it makes by read, apply and replace
    // must not interleave with another (the gate above queues single commands only).
    engine: mongoEngine(conn.db!, { checkIndexes, ...(ferretdb ? { ferretdb: { queue: true } } : {}) }),
    async ping(timeoutMs = 1500) {
      const db = conn.db;
      if (!db) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          db.command({ ping: 1 }).then(() => true),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          }),
        ]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    ensureEngineIndexes,
    close: () => conn.close(),
  };
}
