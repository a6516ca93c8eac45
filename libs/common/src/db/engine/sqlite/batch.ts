/**
 * The writes of one turn of the event loop, committed together (ADR 0036). A commit is the
 * costliest part of a write on SQLite: `BEGIN IMMEDIATE` takes the file's write lock and reads the
 * WAL index, `COMMIT` appends every page the transaction changed to the WAL. A `POST /outbox` made
 * nine of them, and under load the main thread spent about half its time there
 * (docs/performance.md). Here the first write of a turn opens the connection's transaction; every
 * write that follows in that turn (other requests' included) joins it, each in a savepoint of its
 * own, so a failed write (a duplicate key) takes back only its own changes; the transaction
 * commits once the turn's callbacks are done (`setImmediate`). A page that several writes of the
 * turn change goes to the WAL once.
 *
 * What a write's promise means does not change: it resolves once its transaction has committed
 * (durable as the connection's `synchronous` says), and rejects if that commit fails. What changes
 * is visibility inside this process only: a read on this connection sees a write of the same turn
 * before its commit (other processes see nothing until then). A commit fails only on I/O errors (a
 * full disk), and then every write of the turn rejects: nothing is acknowledged that was not
 * stored.
 *
 * Another connection of this process to the same file (tests open several; so could a tool)
 * would wait for the write lock synchronously, blocking the event loop this transaction needs to
 * commit: before a connection begins, every other open transaction of the process on its file
 * commits (`peers`).
 */
import type { DatabaseSync } from 'node:sqlite';
import { types } from 'node:util';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The batches of this process's connections, by database file. */
const PEERS = new Map<string, Set<CommitBatch>>();

export class CommitBatch {
  private open = false;
  private waiters: Waiter[] = [];
  private readonly peers: Set<CommitBatch>;

  constructor(
    private readonly db: DatabaseSync,
    /** The database file (`:memory:`: a database of its own, with no peers). */
    private readonly path: string,
    /** Told after every commit, with the writes it held (the checkpoint thread counts them). */
    private readonly committed?: (writes: number) => void,
  ) {
    const peers = path === ':memory:' ? new Set<CommitBatch>() : (PEERS.get(path) ?? new Set());
    if (path !== ':memory:') PEERS.set(path, peers);
    peers.add(this);
    this.peers = peers;
  }

  /** The connection is closing: commits what it wrote and leaves its peers. */
  close(): void {
    this.flush();
    this.peers.delete(this);
    if (!this.peers.size && PEERS.get(this.path) === this.peers) PEERS.delete(this.path);
  }

  /**
   * Runs `fn` (synchronous statements) in the turn's transaction; resolves with its result once
   * the transaction commits. A throw from `fn` takes back its statements only and rejects.
   * `oneChange`: `fn` changes the database in one statement at most, which SQLite takes back by
   * itself when it fails (a statement is atomic), so it needs no savepoint of its own.
   */
  run<R>(fn: () => R, oneChange = false): Promise<R> {
    try {
      return this.join(fn, oneChange);
    } catch (err) {
      // node:sqlite's errors are native Errors of another realm under jest (not `instanceof Error`
      // there): kept as they are, so the collection still reads their code (a unique violation).
      return Promise.reject(err instanceof Error || types.isNativeError(err) ? err : new Error(String(err)));
    }
  }

  private join<R>(fn: () => R, oneChange: boolean): Promise<R> {
    if (!this.open) {
      for (const peer of this.peers) if (peer !== this) peer.flush();
      this.db.exec('BEGIN IMMEDIATE');
      this.open = true;
      setImmediate(() => this.flush());
    }
    if (!oneChange) this.db.exec('SAVEPOINT w');
    let out: R;
    try {
      out = fn();
      if (!oneChange) this.db.exec('RELEASE w');
    } catch (err) {
      this.undo(oneChange);
      throw err;
    }
    return new Promise<R>((resolve, reject) => {
      this.waiters.push({ resolve: () => resolve(out), reject });
    });
  }

  /** After a failed write: its own statements go; if SQLite rolled the whole transaction back, the turn's writes fail. */
  private undo(oneChange: boolean): void {
    if (this.db.isTransaction) {
      if (oneChange) return;
      this.db.exec('ROLLBACK TO w');
      this.db.exec('RELEASE w');
      return;
    }
    this.fail(new Error('the write transaction was rolled back by SQLite'));
  }

  /**
   * Commits what this process's connections to the file wrote in the turn: before a statement
   * that must run outside a turn's transaction (a schema change), which takes the write lock.
   */
  settle(): void {
    for (const peer of this.peers) peer.flush();
  }

  /** Commits now what the turn wrote (before a statement that must run outside it, or a close). */
  flush(): void {
    if (!this.open) return;
    try {
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      this.fail(err);
      return;
    }
    const waiters = this.waiters;
    this.waiters = [];
    this.open = false;
    this.committed?.(waiters.length);
    for (const w of waiters) w.resolve();
  }

  private fail(err: unknown): void {
    const waiters = this.waiters;
    this.waiters = [];
    this.open = false;
    for (const w of waiters) w.reject(err);
  }
}
