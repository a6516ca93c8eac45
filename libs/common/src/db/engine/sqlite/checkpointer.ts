/**
 * WAL checkpoints on a second thread (ADR 0019). By default SQLite checkpoints inside the COMMIT
 * that pushes the WAL past 1000 pages: that commit copies the WAL's pages into the database file
 * and, at `synchronous` NORMAL, waits for two fsyncs, all on the thread that committed. Under a
 * write load that was the largest single cost of the event loop (docs/performance.md). Here the
 * writing connection turns its automatic checkpoints off and a worker thread with its own
 * connection to the file runs a PASSIVE checkpoint every `every` commits: it copies what is
 * committed without taking the write lock, so writers go on meanwhile, and the fsyncs happen on
 * that thread. What a commit guarantees does not change: at NORMAL a commit is durable on the
 * WAL's next sync either way, at FULL the commit syncs the WAL itself.
 *
 * Should the thread fail, the connection takes its automatic checkpoints back, so the WAL never
 * grows without bound.
 */
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

/** SQLite's default `wal_autocheckpoint` (pages), restored if the thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker's whole program, evaluated as CommonJS: it needs only node:sqlite, so it neither
 * loads this package nor depends on where the bundle put this file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: workerData.timeoutMs });
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const row = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed });
});
`;

export interface Checkpointer {
  /** Counts a commit of the writing connection; every `every` commits, asks for a checkpoint. */
  committed(): void;
  /** Closes the thread's connection before the writing one, which checkpoints what is left. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  /** The writing connection: its automatic checkpoints are off while the thread serves it. */
  db: DatabaseSync;
  path: string;
  timeoutMs: number;
  /** Commits between two checkpoints. */
  every?: number;
  /** Told when the thread failed and the connection checkpoints by itself again. */
  onFailure?: (err: Error) => void;
}

export function startCheckpointer({
  db,
  path,
  timeoutMs,
  every = 100,
  onFailure,
}: CheckpointerOptions): Checkpointer {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let commits = 0;
  let running = false;
  let alive = true;
  const fail = (err: Error) => {
    if (!alive) return;
    alive = false;
    if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    onFailure?.(err);
  };
  // Started with the first checkpoint: a process that writes little (an idle server, a tool)
  // never holds the thread's isolate.
  const start = (): Worker => {
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, timeoutMs },
      // The program allocates next to nothing: a small heap keeps the thread's RSS small.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
    });
    // The thread never keeps the process alive: an idle server exits when everything else is done.
    w.unref();
    exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    w.on('message', () => {
      running = false;
    });
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`checkpoint thread exited (${code})`)));
    return w;
  };
  return {
    committed() {
      if (!alive || ++commits < every || running) return;
      commits = 0;
      running = true;
      try {
        worker ??= start();
        worker.postMessage('checkpoint');
      } catch (err) {
        fail(err as Error);
      }
    },
    async close() {
      if (alive) {
        alive = false;
        worker?.postMessage('close');
      }
      await exited;
    },
  };
}
