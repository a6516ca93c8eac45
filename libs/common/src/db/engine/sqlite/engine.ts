/**
 * The SQLite adapter of the engine port: Node's built-in `node:sqlite` in this process (no native
 * addon, no second process, no Go). One file, WAL, a busy timeout so that writers of several
 * processes on one file wait for each other instead of failing, and `synchronous` NORMAL by
 * default: a crash of the process loses nothing; a power loss may lose the last commits (FULL
 * syncs at every commit: EMBEDDED_DB_SYNC=full). See ADR 0013.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { CollectionSpec, Doc, Engine } from '../port';
import { DatabaseInUse, PortUsageError } from '../port';
import { CommitBatch } from './batch';
import { startCheckpointer, type Checkpointer } from './checkpointer';
import { SqliteCollection } from './collection';
import { createIndexSql, indexName, quoteName } from './sql';
import { isTermIndexTable, SqliteTermIndexes } from './term-index';

export interface SqliteOptions {
  /** The database file (`:memory:` for a private in-memory database). */
  path: string;
  synchronous?: 'normal' | 'full';
  /** How long a writer waits for another connection's write lock. */
  busyTimeoutMs?: number;
  /** Refuse queries no declared index serves (coverage.ts); the test suites turn it on. */
  checkIndexes?: boolean;
  /**
   * Hold the file alone until `close` (an offline migration): opening fails with DatabaseInUse
   * while another connection has it open (a server idle in WAL mode included), and no other
   * process can open it meanwhile.
   */
  exclusive?: boolean;
  /**
   * Where WAL checkpoints run: inside the commit that fills the WAL (SQLite's default), or on a
   * worker thread of this process (checkpointer.ts, ADR 0019; the servers).
   */
  checkpoints?: 'inline' | 'thread';
  /** Told when the checkpoint thread failed (the connection then checkpoints inline again). */
  onCheckpointFailure?: (err: Error) => void;
}

const SQLITE_BUSY = 5;

/** Collection names; a leading `_` marks a restore's staging and retired ones. */
const NAME_RE = /^[a-z_][a-z0-9_]*$/;

export function openSqlite(opts: SqliteOptions): Engine {
  if (opts.path !== ':memory:') mkdirSync(dirname(opts.path), { recursive: true });
  const timeoutMs = opts.busyTimeoutMs ?? 10_000;
  const db = new DatabaseSync(opts.path, { timeout: timeoutMs });
  try {
    // In WAL mode every open connection keeps a shared lock on the file for its whole life, so an
    // exclusive lock, taken before anything else, is refused while any other connection has it open.
    if (opts.exclusive) db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // A write's savepoint (batch.ts) keeps the pages it changes in a sub-journal: in memory, not
    // in a temporary file per transaction.
    db.exec('PRAGMA temp_store = MEMORY');
    if (opts.exclusive) db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    db.close();
    const busy = (err as { errcode?: number }).errcode === SQLITE_BUSY;
    throw opts.exclusive && busy ? new DatabaseInUse(opts.path) : err;
  }
  const collections = new Map<string, SqliteCollection<Doc>>();
  // The turn's writes, committed together; the checkpoint thread counts them.
  const batch = new CommitBatch(db, opts.path === ':memory:' ? opts.path : resolve(opts.path), (writes) =>
    checkpointer?.committed(writes),
  );
  // A private in-memory database has no WAL, and an exclusive one no second connection.
  const checkpointer: Checkpointer | undefined =
    opts.checkpoints === 'thread' && opts.path !== ':memory:' && !opts.exclusive
      ? startCheckpointer({
          db,
          path: opts.path,
          timeoutMs,
          flush: () => batch.flush(),
          ...(opts.onCheckpointFailure ? { onFailure: opts.onCheckpointFailure } : {}),
        })
      : undefined;
  const gate = checkpointer ? () => checkpointer.gate() : undefined;
  const termIndexes = new SqliteTermIndexes(db);

  const ensureOne = (spec: CollectionSpec) => {
    const table = quoteName(spec.name);
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (_id TEXT PRIMARY KEY NOT NULL, doc BLOB NOT NULL) STRICT`);
    const wanted = new Set(spec.indexes.map((ix) => indexName(spec.name, ix)));
    // Indexes this code no longer declares go, so none is kept up for a query nobody runs (and a
    // renamed table's indexes, named after its old name, are rebuilt under its new one).
    const existing = db.prepare(`PRAGMA index_list(${table})`).all() as Array<{
      name: string;
      origin: string;
    }>;
    for (const { name, origin } of existing)
      if (origin === 'c' && !wanted.has(name)) db.exec(`DROP INDEX ${quoteName(name)}`);
    for (const ix of spec.indexes) db.exec(createIndexSql(spec.name, ix));
    termIndexes.ensure(spec);
  };

  return {
    kind: 'sqlite',
    ensure(specs) {
      return Promise.resolve().then(() => {
        batch.settle();
        db.exec('BEGIN IMMEDIATE');
        try {
          for (const spec of specs) {
            if (!NAME_RE.test(spec.name)) throw new PortUsageError(`not a collection name: ${spec.name}`);
            ensureOne(spec);
          }
          db.exec('COMMIT');
        } catch (err) {
          db.exec('ROLLBACK');
          throw err;
        }
      });
    },
    collection<T extends Doc>(spec: CollectionSpec) {
      let c = collections.get(spec.name);
      if (!c) {
        c = new SqliteCollection<Doc>({
          db,
          spec,
          checkIndexes: !!opts.checkIndexes,
          batch,
          ...(gate ? { gate } : {}),
        });
        collections.set(spec.name, c);
      }
      return c as unknown as SqliteCollection<T>;
    },
    ping() {
      return Promise.resolve(db.isOpen && db.prepare('SELECT 1 AS ok').get()?.ok === 1);
    },
    names() {
      const rows = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as Array<{ name: string }>;
      return Promise.resolve(rows.map((r) => r.name).filter((n) => !isTermIndexTable(n)));
    },
    rename(from, to) {
      return Promise.resolve().then(() => {
        if (!NAME_RE.test(to)) throw new PortUsageError(`not a collection name: ${to}`);
        batch.settle();
        termIndexes.rename(from, to);
      });
    },
    drop(name) {
      return Promise.resolve().then(() => {
        batch.settle();
        termIndexes.drop(name);
      });
    },
    findByTerm(spec, query) {
      return Promise.resolve().then(() => termIndexes.find(spec, query));
    },
    async close() {
      batch.close();
      // The thread's connection first: the last one to close checkpoints the rest of the WAL.
      await checkpointer?.close();
      if (db.isOpen) db.close();
    },
  };
}
