/**
 * Other servers this one knows (docs/federation.md, "Known servers"): when each was last heard
 * from, what its NodeInfo says it is (and whether it speaks this protocol), the last circuit
 * breaker state the federation service saw, whether an admin blocked it, and the leases that make
 * exactly one federation replica poll it, probe it or drain its held deliveries. A row's `_id` is
 * the server's domain, so every per-server read and write is a primary-key lookup. Written over
 * the engine port (ADR 0013).
 */
import type { Collection, CollectionSpec, Engine, Value } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

/** What a server's NodeInfo said, and when it was read. */
export interface NodeInfoRecord {
  software: { name: string; version: string } | null;
  protocols: string[];
  /** It identifies this software or this server-to-server protocol (decisions.md §6). */
  compatible: boolean;
  fetchedAt: Date;
  /** Read again after this. */
  refreshAt: Date;
  /** Why the last read failed (the fields above are then from an earlier read, if any). */
  error: string | null;
}

/** The circuit breaker as the federation service last saw it (the admin list shows it). */
export interface CircuitRecord {
  state: 'closed' | 'open';
  /** While open: when the cool-down ends (then one probe is let through: half-open). */
  until: Date | null;
  at: Date;
}

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
  /** The last successful contact either way: a verified request from it, or an answer of its. */
  lastSeenAt?: Date | null;
  lastSeenVia?: string | null;
  nodeinfo?: NodeInfoRecord | null;
  circuit?: CircuitRecord | null;
  /** An admin blocked the domain: nothing goes to it or comes from it, its content is hidden. */
  blocked?: boolean;
  blockedAt?: Date | null;
  blockedBy?: string | null;
  blockReason?: string | null;
  /** Inbox requests refused at the door because the domain is blocked. */
  refusedInbound?: number;
  /** The next half-open probe of a server whose circuit is open (a lease, like nextPollAt). */
  nextProbeAt?: Date | null;
  /** A replica drains the server's held deliveries until then (a lease). */
  drainUntil?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const REMOTE_SERVERS: CollectionSpec = {
  name: 'remote_servers',
  indexes: [
    // Everything else is by `_id` (the domain), or the whole list in `_id` order.
    { fields: [['blocked', 1]], serves: 'blockedDomains: the domains an admin blocked' },
  ],
  dates: [
    'lastPolledAt',
    'nextPollAt',
    'lastSeenAt',
    'nodeinfo.fetchedAt',
    'nodeinfo.refreshAt',
    'circuit.until',
    'circuit.at',
    'blockedAt',
    'nextProbeAt',
    'drainUntil',
    'createdAt',
    'updatedAt',
  ],
};

/** The fields a row is created with; an upsert sets those its own `$set` does not. */
function base(domain: string, now: Date): Omit<RemoteServerRecord, '_id'> {
  return {
    domain,
    lastPolledAt: null,
    nextPollAt: null,
    errorCount: 0,
    lastError: null,
    blocked: false,
    createdAt: now,
    updatedAt: now,
  };
}

export class RemoteServersStore {
  private readonly rows: Collection<RemoteServerRecord>;

  constructor(engine: Engine) {
    this.rows = engine.collection<RemoteServerRecord>(REMOTE_SERVERS);
  }

  byDomain(domain: string): Promise<RemoteServerRecord | null> {
    return this.rows.findOne({ _id: domain });
  }

  /** Sets fields on a server's row, creating it when it is new. */
  private async upsert(domain: string, set: Record<string, Value | undefined>): Promise<void> {
    const now = new Date();
    const fields = { ...set, updatedAt: now };
    const onInsert = Object.fromEntries(
      Object.entries(base(domain, now)).filter(([k]) => !(k in fields)),
    ) as Record<string, Value>;
    await this.rows.updateOne({ _id: domain }, { $set: fields, $setOnInsert: onInsert }, { upsert: true });
  }

  /**
   * Claims the server for one poll when it is due (or unknown): moves `nextPollAt` to `next` by a
   * compare-and-set on the value read, so of concurrent claimers exactly one gets the row; null
   * when it is not due or another replica claimed it first.
   */
  async claimPoll(domain: string, now: Date, next: Date): Promise<RemoteServerRecord | null> {
    const row = await this.byDomain(domain);
    if (!row) {
      const created: RemoteServerRecord = { _id: domain, ...base(domain, now), nextPollAt: next };
      try {
        await this.rows.insertOne(created);
        return created;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return null; // another replica created and claimed it
        throw err;
      }
    }
    if (row.nextPollAt && row.nextPollAt.getTime() > now.getTime()) return null;
    // A row made by another path may hold no nextPollAt at all: null matches a missing field too.
    return this.rows.findOneAndUpdate(
      { _id: domain, nextPollAt: row.nextPollAt ?? null },
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

  /** A poll failed (or was not made): the streak grows and the server is not due again before `retryAt`. */
  async pollFailed(domain: string, errorCount: number, error: string, retryAt: Date): Promise<void> {
    await this.rows.updateOne(
      { _id: domain },
      { $set: { errorCount, lastError: error.slice(0, 300), nextPollAt: retryAt, updatedAt: new Date() } },
    );
  }

  /** The server was heard from (`via`: inbound, delivery, pull, probe). */
  async seen(domain: string, via: string, at = new Date()): Promise<void> {
    await this.upsert(domain, { lastSeenAt: at, lastSeenVia: via });
  }

  /** What its NodeInfo said (or why it could not be read: the last good answer is kept). */
  async recordNodeInfo(
    domain: string,
    info: Omit<NodeInfoRecord, 'error'> | { error: string; fetchedAt: Date; refreshAt: Date },
  ): Promise<void> {
    if ('error' in info) {
      const row = await this.byDomain(domain);
      const prior = row?.nodeinfo;
      await this.upsert(domain, {
        nodeinfo: {
          software: prior?.software ?? null,
          protocols: prior?.protocols ?? [],
          compatible: prior?.compatible ?? false,
          fetchedAt: info.fetchedAt,
          refreshAt: info.refreshAt,
          error: info.error.slice(0, 300),
        },
      });
      return;
    }
    await this.upsert(domain, { nodeinfo: { ...info, error: null } });
  }

  async recordCircuit(domain: string, circuit: CircuitRecord): Promise<void> {
    await this.upsert(domain, { circuit: circuit as unknown as Value });
  }

  /** Blocks or unblocks a domain; the row before (null when it was unknown). */
  async setBlocked(
    domain: string,
    blocked: boolean,
    by: string,
    reason?: string,
  ): Promise<RemoteServerRecord | null> {
    const before = await this.byDomain(domain);
    await this.upsert(
      domain,
      blocked
        ? { blocked: true, blockedAt: new Date(), blockedBy: by, blockReason: reason ?? null }
        : { blocked: false, blockedAt: null, blockedBy: null, blockReason: null },
    );
    return before;
  }

  /** The domains an admin blocked. */
  async blockedDomains(): Promise<string[]> {
    const rows = await this.rows.find({ blocked: true }, { fields: ['_id'] });
    return rows.map((r) => r._id);
  }

  async countRefusedInbound(domain: string): Promise<void> {
    await this.rows.updateOne({ _id: domain }, { $inc: { refusedInbound: 1 } });
  }

  /**
   * Claims the next probe of a server (compare-and-set on `nextProbeAt`, as claimPoll): true for
   * exactly one of several replicas once `now` reaches it.
   */
  async claimProbe(domain: string, now: Date, next: Date): Promise<boolean> {
    const row = await this.byDomain(domain);
    if (!row) return false;
    const due = row.nextProbeAt ?? null;
    if (due && due.getTime() > now.getTime()) return false;
    return (
      (await this.rows.findOneAndUpdate(
        { _id: domain, nextProbeAt: due },
        { $set: { nextProbeAt: next } },
      )) !== null
    );
  }

  /** Claims the draining of a server's held deliveries until `until` (one replica at a time). */
  async claimDrain(domain: string, now: Date, until: Date): Promise<boolean> {
    await this.upsert(domain, {}); // a held delivery's server has a row from now on
    const row = await this.byDomain(domain);
    const held = row?.drainUntil ?? null;
    if (held && held.getTime() > now.getTime()) return false;
    return (
      (await this.rows.findOneAndUpdate(
        { _id: domain, drainUntil: held },
        { $set: { drainUntil: until } },
      )) !== null
    );
  }

  async renewDrain(domain: string, until: Date): Promise<void> {
    await this.rows.updateOne({ _id: domain }, { $set: { drainUntil: until } });
  }

  async releaseDrain(domain: string): Promise<void> {
    await this.rows.updateOne({ _id: domain }, { $set: { drainUntil: null } });
  }

  /** Every known server, in domain order (the servers list). */
  page(skip: number, limit: number): Promise<RemoteServerRecord[]> {
    return this.rows.find({}, { sort: [['_id', 1]], skip, limit });
  }

  count(): Promise<number> {
    return this.rows.count({});
  }
}
