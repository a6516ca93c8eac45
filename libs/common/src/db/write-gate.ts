/**
 * One write at a time on a connection (the embedded FerretDB, ADR 0011). FerretDB 1.24 runs an
 * update as a read, a change in Go and a write, with nothing holding the document in between:
 * two concurrent `$inc`s or `$push`es on one document keep only one (measured: 201 concurrent
 * list appends kept 26). SQLite takes one writer at a time anyway, and makes the others sleep
 * and retry (1 to 100 ms per try); queueing the writes here in arrival order keeps every update
 * and wastes no time asleep. Reads are not queued. On MongoDB (atomic updates, many writers) the
 * gate is not installed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { mongo } from 'mongoose';

type Db = mongo.Db;

/**
 * The driver's write methods. `insertMany` is left out: it calls `bulkWrite` on the same
 * collection, which is queued (queueing both would wait on itself).
 */
const WRITES = [
  'insertOne',
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'bulkWrite',
] as const;

type Queue = <T>(run: () => Promise<T>) => Promise<T>;

/** The queue of each `Db` whose writes are serialized. */
const gates = new WeakMap<Db, Queue>();

/** A turn being held (`inTurn`): writes on its `Db` made inside it queue on its own line. */
interface Hold {
  db: Db;
  open: boolean;
  line: Queue;
}
const holds = new AsyncLocalStorage<Hold>();

/** A queue: each run starts when the one before it has settled. */
function queue(): Queue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * Runs `run` as one turn of `db`'s write queue: it starts once every write queued before it has
 * finished, and no other write starts until it settles; the writes it makes itself run at once,
 * one at a time. Without a queue on `db` (MongoDB) it runs at once. Group commit
 * (group-commit.ts) takes its batch inside the turn, so the batch holds everything that arrived
 * while the writes ahead of it ran, and is written without waiting in line again.
 */
export function inTurn<T>(db: Db | undefined, run: () => Promise<T>): Promise<T> {
  const gate = db && gates.get(db);
  if (!gate) return run();
  return gate(() => {
    const hold: Hold = { db, open: true, line: queue() };
    return holds.run(hold, run).finally(() => {
      hold.open = false;
    });
  });
}

/** `inTurn` on the connection a model writes through (read at each call). */
export function turnOf(model: { db?: { db?: Db | undefined } }): <T>(run: () => Promise<T>) => Promise<T> {
  return (run) => inTurn(model.db?.db, run);
}

/** Queues every write made through collections this `Db` hands out from now on. */
export function serializeWrites(db: Db): void {
  const line = queue();
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const hold = holds.getStore();
    return hold?.open && hold.db === db ? hold.line(run) : line(run);
  };
  gates.set(db, queued);
  const collection = db.collection.bind(db);
  db.collection = ((name: string, options?: Parameters<Db['collection']>[1]) => {
    const col = collection(name, options);
    const methods = col as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const m of WRITES) {
      const write = methods[m]!.bind(col);
      methods[m] = (...args: unknown[]) => queued(() => write(...args));
    }
    return col;
  }) as Db['collection'];
}
