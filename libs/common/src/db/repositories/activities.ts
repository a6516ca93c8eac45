/**
 * The activity audit log and the events each activity must publish. Recording writes the events
 * to the outbox first and the activity second, so a crash at any point leaves the events for the
 * relay (messaging/activity-events.ts); publishing deletes them from the outbox.
 */
import { GroupCommit } from '../group-commit';
import { InsertBatch } from '../insert-batch';
import { turnOf } from '../write-gate';
import type { ActivityDoc, Models } from '../models';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';

export type ActivityRecord = ActivityDoc & { id: string; createdAt?: Date; updatedAt?: Date };

export interface StoredEvent {
  name: string;
  payload: Record<string, unknown>;
}

export interface PendingEvents {
  activityId: string;
  events: StoredEvent[];
  /** Posts whose deferred circle fan-out this row keeps until it is written. */
  fanOut: string[];
}

// Relay bookkeeping of older rows (`events`, `published`) and client idempotency keys are internal.
const HIDDEN = { _id: 0, __v: 0, events: 0, published: 0, dedupeKey: 0 } as const;

export class ActivitiesStore extends ObjectStore<ActivityRecord> {
  /** Outbox rows of confirmed activities, deleted together (group commit). */
  private readonly confirmed: GroupCommit<string>;
  /** New outbox rows, inserted together (insert-batch.ts). */
  private readonly outbox: InsertBatch;

  constructor(private readonly models: Models) {
    super(models.Activity);
    this.outbox = new InsertBatch(models.EventOutbox);
    this.confirmed = new GroupCommit(async (ids) => {
      await this.models.EventOutbox.bulkWrite(
        ids.map((id) => ({ deleteOne: { filter: { _id: id } } })),
        { ordered: false },
      );
    }, turnOf(models.EventOutbox));
  }

  /**
   * Records an activity with the events it must publish. Returns null when an activity with the
   * same id (an inbound one's `remoteId`) was recorded before; the events of that earlier record
   * stay in the outbox if they are still waiting there. (Client Idempotency-Keys live in their own
   * store, repositories/idempotency.ts; `dedupeKey` stays hidden for rows written before it.)
   */
  async record(
    doc: Record<string, unknown> & { id: string },
    events: StoredEvent[],
    work: { fanOut?: string[] } = {},
  ): Promise<ActivityRecord | null> {
    const duplicate = (err: unknown) => (err as { code?: number }).code === 11000;
    // False when an earlier record of this id still has its events waiting: that row is theirs.
    let ownRow = false;
    const fanOut = work.fanOut ?? [];
    if (events.length || fanOut.length)
      try {
        await this.outbox.insert({ _id: doc.id, events, ...(fanOut.length ? { fanOut } : {}) });
        ownRow = true;
      } catch (err) {
        if (!duplicate(err)) throw err;
      }
    try {
      return await this.insert(doc);
    } catch (err) {
      if (!duplicate(err)) throw err;
      if (ownRow) await this.models.EventOutbox.deleteOne({ _id: doc.id });
      return null;
    }
  }

  /** The broker confirmed an activity's events. */
  async markPublished(activityId: string): Promise<void> {
    await this.confirmed.add(activityId);
  }

  /** Outbox rows older than `before` (the relay's work), oldest first. */
  async unpublished(before: Date, limit: number): Promise<PendingEvents[]> {
    const rows = await this.models.EventOutbox.find({ createdAt: { $lt: before } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean();
    return rows.map((r) => ({
      activityId: String(r._id),
      events: (r.events ?? []) as StoredEvent[],
      fanOut: r.fanOut ?? [],
    }));
  }

  /** An actor's own stored activity (Undo by id). */
  async ofActor(actorId: string, id: string): Promise<ActivityRecord | null> {
    const a = await this.byId(id);
    return a && a.actorId === actorId ? a : null;
  }

  /** Where the processing of an inbound activity stands. */
  async setInbound(id: string, inbound: Record<string, unknown>): Promise<void> {
    await this.set(id, { inbound });
  }

  /** GET /users/:id/activities: the actor's own log, newest first (a scan). */
  async pageForActor(
    actorId: string,
    req: PageRequest,
    fields: Record<string, number>,
  ): Promise<FoundRows<ActivityRecord>> {
    return this.page({ actorId, deletedAt: null }, req, { createdAt: -1, _id: -1 }, fields);
  }

  /** GET /admin/activities with its filters (a scan). */
  async pageForAdmin(
    filter: { type?: string; actorId?: string; objectType?: string },
    req: PageRequest,
  ): Promise<FoundRows<ActivityRecord>> {
    return this.page({ ...filter }, req, { createdAt: -1, _id: -1 }, HIDDEN);
  }

  async count(): Promise<number> {
    return this.model.countDocuments({});
  }
}
