/**
 * One write at a time on a connection (the embedded FerretDB, ADR 0011). FerretDB 1.24 runs an
 * update as a read, a change in Go and a write, with nothing holding the document in between:
 * two concurrent `$inc`s or `$push`es on one document keep only one (measured: 201 concurrent
 * list appends kept 26). SQLite takes one writer at a time anyway, and makes the others sleep
 * and retry (1 to 100 ms per try); queueing the writes here in arrival order keeps every update
 * and wastes no time asleep. Reads are not queued. On MongoDB (atomic updates, many writers) the
 * gate is not installed.
 */
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

/** Queues every write made through collections this `Db` hands out from now on. */
export function serializeWrites(db: Db): void {
  let tail: Promise<unknown> = Promise.resolve();
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
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
