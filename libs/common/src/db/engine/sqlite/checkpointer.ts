/**
 * WAL checkpoints on a second thread (ADR 0019). By default SQLite checkpoints inside the COMMIT
 * that pushes the WAL past 1000 pages: that commit copies the WAL's pages into the database file
 * and, at `synchronous` NORMAL, waits for two fsyncs, all on the thread that committed. Under a
 * write load that was the largest single cost of the event loop (docs/performance.md). Here the
 * writing connection turns its automatic checkpoints off and a worker thread with its own
 * connection to the file runs a PASSIVE checkpoint every `every` writes: it copies what is
 * committed without taking the write lock, so writers go on meanwhile, and the fsyncs happen on
 * that thread. What a commit guarantees does not change: at NORMAL a commit is durable on the
 * WAL's next sync either way, at FULL the commit syncs the WAL itself.
 *
 * A PASSIVE checkpoint under a steady write load never catches up: commits land while it copies,
 * so the WAL is never wholly in the database file when the next writer starts, SQLite never
 * starts it over, and it grows for as long as the load lasts (past 900 MB in one run of
 * `bench/outbox-cpu.ts`, each commit writing to pages the kernel has to find anew: ADR 0029). So
 * when a checkpoint leaves the WAL at `restartAt` frames or more, this connection's writes wait
 * (`gate`, a promise; reads go on) while the thread checkpoints once more: with nothing
 * committing, that copies the rest, and the next commit starts the WAL over from its beginning.
 * The extra checkpoint is PASSIVE too, so it never blocks another process writing the file (if
 * one did write meanwhile, the WAL is simply not restarted this time).
 *
 * Should the thread fail, the connection takes its automatic checkpoints back, so the WAL never
 * grows without bound.
 */
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

/** SQLite's default `wal_autocheckpoint` (pages), restored if the thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;

/** About 8 MB of 4 KB pages: a few hundred commits of `POST /outbox`. */
export const RESTART_AT_FRAMES = 2000;

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
  /**
   * Counts a commit of the writing connection and the writes it held (batch.ts); every `every`
   * writes, asks for a checkpoint.
   */
  committed(writes: number): void;
  /**
   * While the thread copies the rest of a long WAL, what the connection's writes wait for
   * (undefined the rest of the time).
   */
  gate(): Promise<void> | undefined;
  /** Closes the thread's connection before the writing one, which checkpoints what is left. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  /** The writing connection: its automatic checkpoints are off while the thread serves it. */
  db: DatabaseSync;
  path: string;
  timeoutMs: number;
  /** Commits the connection's open write transaction now (batch.ts), before the WAL is drained. */
  flush?: () => void;
  /** Writes between two checkpoints (a commit holds the writes of one turn). */
  every?: number;
  /**
   * WAL frames (pages) a checkpoint may leave before the writes wait for the rest to be copied,
   * so that the WAL starts over.
   */
  restartAt?: number;
  /** Told when the thread failed and the connection checkpoints by itself again. */
  onFailure?: (err: Error) => void;
}

export function startCheckpointer({
  db,
  path,
  timeoutMs,
  flush,
  every = 100,
  restartAt = RESTART_AT_FRAMES,
  onFailure,
}: CheckpointerOptions): Checkpointer {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let writes = 0;
  let running = false;
  let alive = true;
  /** The writes' wait while the thread drains the WAL, and how it ends. */
  let draining: { wait: Promise<void>; open: () => void } | undefined;
  const reopen = () => {
    draining?.open();
    draining = undefined;
  };
  const fail = (err: Error) => {
    reopen();
    if (!alive) return;
    alive = false;
    if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    onFailure?.(err);
  };
  const checkpointed = (m: { log: number; checkpointed: number }) => {
    // `log` and `checkpointed` count the frames there were when the checkpoint began: the commits
    // made while it ran are not in them, so the WAL is not known to be copied whole (and will not
    // start over) until one runs with nothing committing.
    if (draining || !alive || m.log < restartAt) {
      // Done (drained, or short enough): the writes go on.
      reopen();
      running = false;
      return;
    }
    // The turn's open write transaction commits now (batch.ts); from here until the thread
    // answers, the writes wait at the gate, so nothing of this process appends to the WAL.
    flush?.();
    let open!: () => void;
    draining = { wait: new Promise<void>((resolve) => (open = resolve)), open };
    worker!.postMessage('checkpoint');
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
    w.on('message', checkpointed);
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`checkpoint thread exited (${code})`)));
    return w;
  };
  return {
    committed(n) {
      writes += n;
      if (!alive || writes < every || running) return;
      writes = 0;
      running = true;
      try {
        worker ??= start();
        worker.postMessage('checkpoint');
      } catch (err) {
        fail(err as Error);
      }
    },
    gate() {
      return draining?.wait;
    },
    async close() {
      reopen();
      if (alive) {
        alive = false;
        worker?.postMessage('close');
      }
      await exited;
    },
  };
}
