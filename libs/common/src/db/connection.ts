/**
 * The MongoDB connection (mongoose). Commands fail fast while the database is away (no
 * buffering, short server selection), the driver reconnects by itself, and `ping` backs the
 * health probe.
 */
import type { Connection } from 'mongoose';
import type { Logger } from '../logger';
import { mongoEngine } from './engine/mongo/engine';
import { claimSoleWriter } from './engine/mongo/ferretdb';
import { openSqlite } from './engine/sqlite/engine';
import type { Engine } from './engine/port';

export interface Database {
  /** The engine port (ADR 0013): every store reads and writes through it. */
  engine: Engine;
  /** MongoDB only: the connection under the port (stats, the driver's own events). */
  conn?: Connection;
  /** True when a ping answered within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenOptions {
  logger: Logger;
  /** MongoDB (the cluster). */
  mongoUrl?: string | undefined;
  /** SQLite in this process (standalone, or several processes on one file) when no MongoDB URL. */
  sqlitePath: string;
  /** SQLite's `synchronous`: `normal` (default) or `full`. */
  sqliteSync?: 'normal' | 'full';
  /** Refuse store queries no declared index serves (the port's coverage check; tests). */
  checkIndexes?: boolean;
}

/** The database of the configuration: MongoDB when a URL is given, else SQLite in a file. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.mongoUrl)
    return connectDatabase({
      url: opts.mongoUrl,
      logger: opts.logger,
      soleWriter: true,
      ...(opts.checkIndexes ? { checkIndexes: true } : {}),
    });
  const engine = openSqlite({
    path: opts.sqlitePath,
    // A server's commits do not wait for checkpoints (ADR 0019).
    checkpoints: 'thread',
    onCheckpointFailure: (err) =>
      opts.logger.error({ err: err.message }, 'database: checkpoint thread failed; checkpoints inline'),
    ...(opts.sqliteSync ? { synchronous: opts.sqliteSync } : {}),
    ...(opts.checkIndexes ? { checkIndexes: true } : {}),
  });
  opts.logger.info({ path: opts.sqlitePath }, 'database: SQLite in this process');
  return {
    engine,
    ping: () => engine.ping(),
    close: () => engine.close(),
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
  /** Refuse store queries no declared index serves (the port's coverage check; tests). */
  checkIndexes?: boolean;
  /**
   * On FerretDB, take the database's sole-writer lease (engine/mongo/ferretdb.ts): a second
   * process opening the same database then refuses to start. Services always do (openDatabase);
   * tools that read beside a running server (tests, benches) do not.
   */
  soleWriter?: boolean;
}

export async function connectDatabase({
  url,
  logger,
  initialRetryMs = 60_000,
  checkIndexes = false,
  soleWriter = false,
}: ConnectOptions): Promise<Database> {
  // mongoose and the driver are loaded only here: a process on SQLite never holds them (~30 MB).
  const { default: mongoose } = await import('mongoose');
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
  let lease: { release(): Promise<void> } | undefined;
  if (ferretdb && soleWriter) {
    try {
      lease = await claimSoleWriter(conn.db);
    } catch (err) {
      await conn.close();
      throw err;
    }
  }
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
    async close() {
      await lease?.release();
      await conn.close();
    },
  };
}
