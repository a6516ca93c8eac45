/**
 * The MongoDB connection (mongoose). Commands fail fast while the database is away (no
 * buffering, short server selection), the driver reconnects by itself, and `ping` backs the
 * health probe.
 */
import mongoose, { type Connection } from 'mongoose';
import type { Logger } from '../logger';
import { mongoEngine } from './engine/mongo/engine';
import type { Engine } from './engine/port';

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
  /** Refuse store queries no declared index serves (the port's coverage check; tests). */
  checkIndexes?: boolean;
}

export async function connectDatabase({
  url,
  logger,
  initialRetryMs = 60_000,
  ensureEngineIndexes = () => Promise.resolve(),
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
  // FerretDB (CI's stand-in for MongoDB) loses concurrent updates: the port's adapter then writes
  // one at a time and in small batches (ADR 0013, engine/mongo/ferretdb.ts).
  const ferretdb = !!conn.db && (await isFerretDB(conn));
  if (ferretdb) logger.info('FerretDB: this process writes one at a time (ADR 0013)');
  return {
    conn,
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
