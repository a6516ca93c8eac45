/**
 * Other servers this one pulls from (the poll worker): the lease that makes exactly one
 * federation replica poll a server, and the outcome of each poll (backoff on failures). A row's
 * `_id` is the server's domain, so every read and write is an `_id` lookup.
 */
import type { Models, RemoteServerDoc } from '../models';

export type RemoteServerRecord = RemoteServerDoc & { _id?: string };

export class RemoteServersStore {
  constructor(private readonly models: Models) {}

  async byDomain(domain: string): Promise<RemoteServerRecord | null> {
    return this.models.RemoteServer.findOne({ _id: domain }).lean<RemoteServerRecord>();
  }

  /**
   * Claims the server for one poll when it is due (or unknown): moves `nextPollAt` to `next`
   * with a conditional update, so of concurrent claimers exactly one gets the row; null when it
   * is not due or another replica claimed it.
   */
  async claimPoll(domain: string, now: Date, next: Date): Promise<RemoteServerRecord | null> {
    const res = await this.models.RemoteServer.updateOne(
      { _id: domain, $or: [{ nextPollAt: null }, { nextPollAt: { $lte: now } }] },
      { $set: { nextPollAt: next } },
    );
    if (res.modifiedCount === 1) return this.byDomain(domain);
    try {
      const created = await this.models.RemoteServer.create({ _id: domain, domain, nextPollAt: next });
      return created.toObject() as RemoteServerRecord;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return null; // exists and not due
      throw err;
    }
  }

  /** A poll succeeded: the next one pulls from `at` on, and the failure streak ends. */
  async pollSucceeded(domain: string, at: Date): Promise<void> {
    await this.models.RemoteServer.updateOne(
      { _id: domain },
      { $set: { lastPolledAt: at, errorCount: 0, lastError: null } },
    );
  }

  /** A poll failed: the streak grows and the server is not due again before `retryAt`. */
  async pollFailed(domain: string, errorCount: number, error: string, retryAt: Date): Promise<void> {
    await this.models.RemoteServer.updateOne(
      { _id: domain },
      { $set: { errorCount, lastError: error.slice(0, 300), nextPollAt: retryAt } },
    );
  }
}
