/**
 * Other servers this one pulls from (the poll worker): the lease that makes exactly one
 * federation replica poll a server, and the outcome of each poll (backoff on failures). A row's
 * `_id` is the server's domain, so every read and write is a primary-key lookup. Written over the
 * engine port (ADR 0013).
 */
import type { Collection, CollectionSpec, Engine } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

export interface RemoteServerRecord {
  /** The server's domain. */
  _id: string;
  domain: string;
  /** When the last successful poll ran; the next pulls what is newer. */
  lastPolledAt: Date | null;
  /** When the server is due again: the worker that moves it forward polls it (a lease). */
  nextPollAt: Date | null;
  /** Polls failed in a row (backoff). */
  errorCount: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const REMOTE_SERVERS: CollectionSpec = {
  name: 'remote_servers',
  // Every query is by `_id` (the domain).
  indexes: [],
  dates: ['lastPolledAt', 'nextPollAt', 'createdAt', 'updatedAt'],
};

export class RemoteServersStore {
  private readonly rows: Collection<RemoteServerRecord>;

  constructor(engine: Engine) {
    this.rows = engine.collection<RemoteServerRecord>(REMOTE_SERVERS);
  }

  byDomain(domain: string): Promise<RemoteServerRecord | null> {
    return this.rows.findOne({ _id: domain });
  }

  /**
   * Claims the server for one poll when it is due (or unknown): moves `nextPollAt` to `next` by a
   * compare-and-set on the value read, so of concurrent claimers exactly one gets the row; null
   * when it is not due or another replica claimed it first.
   */
  async claimPoll(domain: string, now: Date, next: Date): Promise<RemoteServerRecord | null> {
    const row = await this.byDomain(domain);
    if (!row) {
      const created: RemoteServerRecord = {
        _id: domain,
        domain,
        lastPolledAt: null,
        nextPollAt: next,
        errorCount: 0,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      };
      try {
        await this.rows.insertOne(created);
        return created;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return null; // another replica created and claimed it
        throw err;
      }
    }
    if (row.nextPollAt && row.nextPollAt.getTime() > now.getTime()) return null;
    return this.rows.findOneAndUpdate(
      { _id: domain, nextPollAt: row.nextPollAt },
      { $set: { nextPollAt: next, updatedAt: now } },
    );
  }

  /** A poll succeeded: the next one pulls from `at` on, and the failure streak ends. */
  async pollSucceeded(domain: string, at: Date): Promise<void> {
    await this.rows.updateOne(
      { _id: domain },
      { $set: { lastPolledAt: at, errorCount: 0, lastError: null, updatedAt: new Date() } },
    );
  }

  /** A poll failed: the streak grows and the server is not due again before `retryAt`. */
  async pollFailed(domain: string, errorCount: number, error: string, retryAt: Date): Promise<void> {
    await this.rows.updateOne(
      { _id: domain },
      { $set: { errorCount, lastError: error.slice(0, 300), nextPollAt: retryAt, updatedAt: new Date() } },
    );
  }
}
