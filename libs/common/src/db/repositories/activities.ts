/**
 * The activity audit log and the events each activity must publish (the transactional outbox),
 * over the engine port (ADR 0013). Recording writes the events to the outbox first and the
 * activity second, so a crash at any point leaves the events for the relay
 * (messaging/outbox-relay.ts); publishing deletes them from the outbox. Each write is one insert,
 * one conditional update or one delete of one document: nothing waits to be batched, so nothing
 * accepted sits in a process's memory.
 */
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Engine,
  type Filter,
} from '../engine/port';
import type { FoundRows, PageRequest } from './object-collection';

/** Where the processing of an inbound activity (POST /inbox) stands. */
export type InboundState = {
  status: 'accepted' | 'processed' | 'ignored' | 'rejected';
  keyId?: string;
  receivedAt?: Date;
  processedAt?: Date;
  reason?: string;
};

/** An activity as the log shows it (no secrets: the writers never put any in). */
export interface ActivityRecord {
  id: string;
  type: string;
  actorId: string;
  objectType?: string;
  objectId?: string;
  target?: string;
  to?: string;
  /** The handler's result: free-form. */
  object?: unknown;
  summary?: string;
  server?: string;
  /** Inbound: the activity's own id, seen at most once. */
  remoteId?: string;
  /** Inbound: the activity as received. */
  raw?: string;
  /**
   * Inbound ActivityPub: the body as its author's server sent it, kept when it is to be
   * forwarded unchanged (a signed public reply in a thread, ActivityPub §7.1.2).
   */
  original?: string;
  inbound?: InboundState;
  createdAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}

/** As stored: the record under its key, with the key that makes an activity unique. */
interface ActivityDoc extends ActivityRecord {
  _id: string;
  /**
   * The inbound activity's `remoteId`, or the activity's own id: unique, so an inbound activity
   * is recorded once. Always present (a unique index treats missing values alike on MongoDB and
   * apart on SQLite).
   */
  once: string;
}

export interface StoredEvent {
  name: string;
  payload: Record<string, unknown>;
}

/** An outbox row as the relay reads it. */
export interface PendingEvents {
  activityId: string;
  events: StoredEvent[];
  /** When the row was written or last claimed (what a claim compares). */
  due: Date;
}

interface OutboxRow {
  /** The activity's id. */
  _id: string;
  events: StoredEvent[];
  createdAt: Date;
  /**
   * When the row was written or last claimed by a relay: a relay takes rows whose `due` is
   * older than its grace, so a row is left alone while its writer publishes it and while the
   * relay that claimed it does.
   */
  due: Date;
}

/** The filters of GET /admin/activities, each optional and combinable. */
export interface AdminActivityFilter {
  type?: string;
  actorId?: string;
  objectType?: string;
}

const ADMIN_FILTERS = ['type', 'actorId', 'objectType'] as const;

/** Every combination of the admin filters (each subset, in ADMIN_FILTERS order). */
function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, x) => [...all, ...all.map((s) => [...s, x])], [[]]);
}

export const ACTIVITIES: CollectionSpec = {
  name: 'activities',
  indexes: [
    { fields: [['once', 1]], unique: true, serves: 'record: an inbound activity id is recorded once' },
    // GET /admin/activities filters by any combination of type, actor and object type, newest
    // first: one index per combination (the empty one is the whole log by time). The actor's
    // one also serves GET /users/:id/activities.
    ...subsets(ADMIN_FILTERS).map((combo) => ({
      fields: [...combo.map((f) => [f, 1] as const), ['createdAt', -1] as const],
      serves: combo.length
        ? `pageForAdmin filtered by ${combo.join(' + ')}${combo.length === 1 && combo[0] === 'actorId' ? '; pageForActor' : ''}`
        : 'pageForAdmin unfiltered: the log newest first',
    })),
  ],
  dates: ['createdAt', 'updatedAt', 'inbound.receivedAt', 'inbound.processedAt'],
};

export const EVENT_OUTBOX: CollectionSpec = {
  name: 'event_outbox',
  indexes: [{ fields: [['due', 1]], serves: "due: the relay's rows, longest waiting first" }],
  dates: ['createdAt', 'due'],
};

/** Newest first, ties by id. */
const NEWEST = [
  ['createdAt', -1],
  ['_id', -1],
] as const;

function shown(doc: ActivityDoc): ActivityRecord {
  const { _id, once, ...record } = doc;
  void _id;
  void once;
  return record;
}

/** Fields given as `undefined` are left out (both engines then store nothing). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export class ActivitiesStore {
  private readonly log: Collection<ActivityDoc>;
  private readonly outbox: Collection<OutboxRow>;

  constructor(engine: Engine) {
    this.log = engine.collection<ActivityDoc>(ACTIVITIES);
    this.outbox = engine.collection<OutboxRow>(EVENT_OUTBOX);
  }

  /**
   * Records an activity with the events it must publish. Returns null when an activity with the
   * same id, or an inbound one with the same `remoteId`, was recorded before; the events of that
   * earlier record stay in the outbox if they are still waiting there. (Client Idempotency-Keys
   * live in their own store, repositories/idempotency.ts.)
   */
  async record(
    doc: Record<string, unknown> & { id: string; type: string; actorId: string },
    events: StoredEvent[],
  ): Promise<ActivityRecord | null> {
    const now = new Date();
    // False when an earlier record of this id still has its events waiting: that row is theirs.
    let ownRow = false;
    if (events.length)
      try {
        await this.outbox.insertOne({ _id: doc.id, events, createdAt: now, due: now });
        ownRow = true;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    const stored = {
      ...defined(doc),
      _id: doc.id,
      once: typeof doc.remoteId === 'string' ? doc.remoteId : doc.id,
      createdAt: now,
      updatedAt: now,
    } as ActivityDoc;
    try {
      await this.log.insertOne(stored);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      if (ownRow) await this.outbox.deleteOne({ _id: doc.id });
      return null;
    }
    return shown(stored);
  }

  /**
   * Keeps events under `key` in the outbox until they are published (`markPublished(key)`), for
   * work done after its activity was recorded (an inbound activity's effects). False when events
   * under that key are waiting already: they are the same work's.
   */
  async queueEvents(key: string, events: StoredEvent[]): Promise<boolean> {
    if (!events.length) return false;
    try {
      const now = new Date();
      await this.outbox.insertOne({ _id: key, events, createdAt: now, due: now });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** The broker confirmed an activity's events: its outbox row goes. */
  async markPublished(activityId: string): Promise<void> {
    await this.outbox.deleteOne({ _id: activityId });
  }

  /** Outbox rows written or claimed before `before` (the relay's work), longest waiting first. */
  async due(before: Date, limit: number): Promise<PendingEvents[]> {
    const rows = await this.outbox.find(
      { due: { $lt: before } },
      {
        sort: [
          ['due', 1],
          ['_id', 1],
        ],
        limit,
      },
    );
    return rows.map((r) => ({ activityId: r._id, events: r.events ?? [], due: r.due }));
  }

  /**
   * Claims a due row for one relay: a compare-and-set of `due` from the value that relay read
   * to now, so of several relays (replicas) that read the row, exactly one claims it, and the
   * row is not due again for another grace period. False when another relay claimed it first
   * or it was published meanwhile.
   */
  async claim(row: Pick<PendingEvents, 'activityId' | 'due'>): Promise<boolean> {
    const r = await this.outbox.updateOne(
      { _id: row.activityId, due: row.due },
      { $set: { due: new Date() } },
    );
    return r.matched === 1;
  }

  /** The activity by id. */
  async byId(id: string): Promise<ActivityRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    const doc = await this.log.findOne({ _id: id });
    return doc ? shown(doc) : null;
  }

  /** The inbound activity recorded under another server's id (`remoteId`): a read of its unique index. */
  async byRemoteId(remoteId: string): Promise<ActivityRecord | null> {
    const doc = await this.log.findOne({ once: remoteId });
    return doc?.remoteId === remoteId ? shown(doc) : null;
  }

  /** An actor's own stored activity (Undo by id). */
  async ofActor(actorId: string, id: string): Promise<ActivityRecord | null> {
    const a = await this.byId(id);
    return a && a.actorId === actorId ? a : null;
  }

  /** Where the processing of an inbound activity stands. */
  async setInbound(id: string, inbound: InboundState): Promise<void> {
    await this.log.updateOne({ _id: id }, { $set: { inbound: defined(inbound), updatedAt: new Date() } });
  }

  /** GET /users/:id/activities: the actor's own log, newest first, with only `fields`. */
  async pageForActor(
    actorId: string,
    req: PageRequest,
    fields: readonly string[],
  ): Promise<FoundRows<Partial<ActivityRecord>>> {
    const page = await this.page({ actorId }, req, fields);
    return { total: page.total, items: page.items };
  }

  /** GET /admin/activities with its filters. */
  async pageForAdmin(filter: AdminActivityFilter, req: PageRequest): Promise<FoundRows<ActivityRecord>> {
    const where: Filter = {};
    // Only the named filters, and only strings: nothing else reaches the query.
    for (const f of ADMIN_FILTERS) {
      const v = filter[f];
      if (typeof v === 'string' && v) where[f] = v;
    }
    return this.page(where, req);
  }

  /** How many activities the log holds (admin statistics). */
  async count(): Promise<number> {
    return this.log.count({});
  }

  private async page(where: Filter, req: PageRequest, fields?: readonly string[]) {
    // A limit of 0 means "no limit" to MongoDB and "none" to SQLite: never ask for it.
    if (req.limit <= 0) return { total: await this.log.count(where), items: [] };
    const [total, docs] = await Promise.all([
      this.log.count(where),
      this.log.find(where, { sort: NEWEST, skip: req.skip, limit: req.limit, ...(fields ? { fields } : {}) }),
    ]);
    return { total, items: docs.map(shown) };
  }
}
