/**
 * What the MongoDB adapter does differently on FerretDB 1.24, CI's stand-in for MongoDB (never a
 * production engine): FerretDB runs an update as read, change, write with nothing holding the
 * document, so concurrent updates of one document lose all but one, across connections and
 * processes alike; and it never answers a bulk write of 100 operations or more. So, on FerretDB
 * only:
 * - the adapter issues one write at a time (a queue), which makes one process safe;
 * - bulk inserts go 50 at a time;
 * - a second process cannot make itself safe that way, so the first one holds a lease document
 *   and any other process opening the same database refuses to start, naming the reason.
 * On MongoDB none of this runs: its single-document updates are atomic.
 */
import { randomUUID } from 'node:crypto';
import type { mongo } from 'mongoose';

export const FERRETDB_BATCH = 50;
/** The adapter's own: never one of the application's collections (`Engine.names` leaves it out). */
export const LEASE_COLLECTION = 'engine_lease';
const LEASE_ID = 'sole-writer';
const LEASE_TTL_MS = 30_000;

export async function isFerretDB(db: mongo.Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}

/** Runs the functions given to it one after another, in call order. */
export function writeQueue(): <R>(fn: () => Promise<R>) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(fn: () => Promise<R>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

export class FerretDBShared extends Error {
  constructor(database: string, owner: string) {
    super(
      `FerretDB database "${database}" is already written by another process (lease ${owner}). ` +
        'FerretDB loses concurrent updates between processes, so only one process may use a ' +
        'database on it: run the services in one process (standalone), or use MongoDB or the ' +
        'SQLite engine for several processes.',
    );
    this.name = 'FerretDBShared';
  }
}

interface LeaseDoc {
  _id: string;
  owner: string;
  expiresAt: Date;
}

/**
 * Takes the database's writer lease (or fails with FerretDBShared) and renews it until
 * `release`. A lease not renewed for LEASE_TTL_MS (its process died) is taken over.
 */
export async function claimSoleWriter(db: mongo.Db): Promise<{ release(): Promise<void> }> {
  const leases = db.collection<LeaseDoc>(LEASE_COLLECTION);
  const owner = randomUUID();
  const expiry = () => new Date(Date.now() + LEASE_TTL_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      await leases.insertOne({ _id: LEASE_ID, owner, expiresAt: expiry() });
      break;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000 || attempt > 2) throw err;
      const held = await leases.findOne({ _id: LEASE_ID });
      if (held && held.expiresAt.getTime() > Date.now())
        throw new FerretDBShared(db.databaseName, held.owner);
      if (held) await leases.deleteOne({ _id: LEASE_ID, owner: held.owner });
    }
  }
  const renew = setInterval(() => {
    void leases.updateOne({ _id: LEASE_ID, owner }, { $set: { expiresAt: expiry() } }).catch(() => undefined);
  }, LEASE_TTL_MS / 3);
  renew.unref();
  return {
    async release() {
      clearInterval(renew);
      await leases.deleteOne({ _id: LEASE_ID, owner }).catch(() => undefined);
    },
  };
}
