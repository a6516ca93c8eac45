/**
 * Deliveries that could not go out at once (docs/federation.md, "Held deliveries"): held while
 * their server is down or retried later after a transient failure, and dead ones (refused for
 * good, out of attempts, or dropped because their domain is blocked), kept for the admin to see.
 * Held deliveries live here rather than in a bus delay queue so they survive a restart of either
 * side (the in-process bus keeps nothing) and can be released the moment their server answers
 * again, instead of waiting out a fixed delay. Written over the engine port (ADR 0013).
 *
 * A row's `_id` is the job's key (`<activity id>><inbox>`), so holding the same job twice
 * changes one row. Within a domain rows are sent in `seq` order (when the job was first
 * planned), and a later activity about the same object (`objectKey`) never overtakes a held one.
 */
import type { Collection, CollectionSpec, Engine } from '../engine/port';

export type ParkedState = 'held' | 'dead';

export interface ParkedDeliveryRecord {
  /** `<activity id>><inbox>`: the delivery job's key. */
  _id: string;
  domain: string;
  /** Order within the domain: when the write the job tells of happened (its event, ISO), ties by `_id`. */
  seq: string;
  /** What the activity is about (a post id, a followed user): its later activities wait behind it. */
  objectKey: string;
  /** The delivery job as JSON (its activity is sent as these bytes' `activity`). */
  job: string;
  /** Sends made so far. */
  attempts: number;
  state: ParkedState;
  /** Not sent again before this (a backoff); released early when the server answers again. */
  notBefore: Date;
  heldAt: Date;
  lastError: string | null;
  updatedAt: Date;
}

export const PARKED_DELIVERIES: CollectionSpec = {
  name: 'parked_deliveries',
  indexes: [
    {
      fields: [
        ['state', 1],
        ['domain', 1],
        ['seq', 1],
      ],
      serves:
        'a domain held rows in order (drain), the domains holding any (skip-scan), counts per domain and state, release',
    },
    {
      fields: [
        ['domain', 1],
        ['objectKey', 1],
        ['state', 1],
      ],
      serves: 'isHeld: whether a later activity about an object must wait behind a held one',
    },
    {
      fields: [
        ['state', 1],
        ['notBefore', 1],
      ],
      serves: 'due: held rows whose time has come (the sweep), and dead rows past retention',
    },
  ],
  dates: ['notBefore', 'heldAt', 'updatedAt'],
};

export interface ParkInput {
  key: string;
  domain: string;
  objectKey: string;
  /** When the write the job tells of happened (its event): its place in the domain's order. */
  plannedAt: string;
  job: unknown;
  attempts: number;
  notBefore: Date;
  lastError?: string | null;
}

export class ParkedDeliveriesStore {
  private readonly rows: Collection<ParkedDeliveryRecord>;

  constructor(engine: Engine) {
    this.rows = engine.collection<ParkedDeliveryRecord>(PARKED_DELIVERIES);
  }

  /** Holds a job (a new one, or one that failed again): its place in the order is kept. */
  async hold(p: ParkInput): Promise<void> {
    const now = new Date();
    await this.rows.updateOne(
      { _id: p.key },
      {
        $set: {
          domain: p.domain,
          objectKey: p.objectKey,
          job: JSON.stringify(p.job),
          attempts: p.attempts,
          state: 'held',
          notBefore: p.notBefore,
          lastError: p.lastError ?? null,
          updatedAt: now,
        },
        $setOnInsert: { seq: p.plannedAt, heldAt: now },
      },
      { upsert: true },
    );
  }

  /** Delivered: the row goes. */
  async remove(key: string): Promise<void> {
    await this.rows.deleteOne({ _id: key });
  }

  /** Refused for good, out of attempts, or dropped: kept as dead, with why. */
  async bury(p: Omit<ParkInput, 'notBefore'> & { reason: string }): Promise<void> {
    const now = new Date();
    await this.rows.updateOne(
      { _id: p.key },
      {
        $set: {
          domain: p.domain,
          objectKey: p.objectKey,
          job: JSON.stringify(p.job),
          attempts: p.attempts,
          state: 'dead',
          notBefore: now,
          lastError: p.reason.slice(0, 300),
          updatedAt: now,
        },
        $setOnInsert: { seq: p.plannedAt, heldAt: now },
      },
      { upsert: true },
    );
  }

  /** Whether a job about `objectKey` for `domain` is held (a later one must wait behind it). */
  async isHeld(domain: string, objectKey: string): Promise<boolean> {
    const row = await this.rows.findOne({ domain, objectKey, state: 'held' }, { fields: ['_id'] });
    return row !== null;
  }

  /** A domain's held rows in order, `limit` at a time after `afterSeq`/`afterId`. */
  heldOf(
    domain: string,
    limit: number,
    after?: { seq: string; id: string },
  ): Promise<ParkedDeliveryRecord[]> {
    return this.rows.find(
      { state: 'held', domain },
      {
        sort: [
          ['seq', 1],
          ['_id', 1],
        ],
        limit,
        ...(after ? { after: [after.seq, after.id] } : {}),
      },
    );
  }

  /** Every domain holding at least one delivery (one indexed read per domain). */
  async domainsHolding(): Promise<string[]> {
    const out: string[] = [];
    let last: string | undefined;
    for (;;) {
      const row = await this.rows.findOne(
        last === undefined ? { state: 'held' } : { state: 'held', domain: { $gt: last } },
        {
          sort: [
            ['domain', 1],
            ['seq', 1],
          ],
          fields: ['domain'],
        },
      );
      if (!row) return out;
      out.push(row.domain);
      last = row.domain;
    }
  }

  /** The server answers again: everything held for it is due now. Returns how many. */
  release(domain: string, at = new Date()): Promise<number> {
    return this.rows.updateMany({ state: 'held', domain }, { $set: { notBefore: at } });
  }

  /** How many deliveries a domain has in a state (the servers list). */
  count(domain: string, state: ParkedState): Promise<number> {
    return this.rows.count({ state, domain });
  }

  /** Everything held for a domain becomes dead (the domain was blocked). Returns how many. */
  async buryAll(domain: string, reason: string): Promise<number> {
    return this.rows.updateMany(
      { state: 'held', domain },
      { $set: { state: 'dead', lastError: reason.slice(0, 300), updatedAt: new Date() } },
    );
  }

  /** A domain's dead rows, newest first (the admin's view of what was given up). */
  deadOf(domain: string, limit: number): Promise<ParkedDeliveryRecord[]> {
    return this.rows.find(
      { state: 'dead', domain },
      {
        sort: [
          ['seq', -1],
          ['_id', -1],
        ],
        limit,
      },
    );
  }

  /** Dead rows older than `before` go (retention). */
  purgeDead(before: Date): Promise<number> {
    return this.rows.deleteMany({ state: 'dead', notBefore: { $lt: before } });
  }
}
