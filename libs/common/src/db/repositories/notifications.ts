/**
 * Notifications (behaviour-notes §6, decisions.md §7): written by the notifications consumer,
 * read and flagged by their recipient. Each recipient's notifications are a list on the bucket
 * pattern (`notifications:<recipient>`, ADR 0005) whose head keeps the counters the routes show,
 * so a page and the unread count cost O(page) and O(1) `_id` reads whatever the collection size:
 *
 * - the head's `count`: not dismissed (GET /notifications' total);
 * - `all_<type>`: not dismissed, by type (the total with `types`);
 * - `unread`, `unread_<type>`: unread and not dismissed (GET /notifications/unread/count).
 *
 * Every state change reads the document before it changes (`findOneAndUpdate` on `_id`,
 * `returnDocument: 'before'`), so exactly one caller moves a counter for one transition, and a
 * dismissed notification stays in its bucket (readers skip it) with its counters taken off.
 */
import type { Models, NotificationType } from '../models';
import type { ListStore } from '../lists/store';
import { runOnce } from '../once';

const LIST = (recipientId: string) => `notifications:${recipientId}`;
/** The pointer to a group's newest notification (`notification_groups`). */
const GROUP = (recipientId: string, groupKey: string) => `${recipientId}|${groupKey}`;
/** The start-up pass that points the groups of notifications stored before the pointers. */
const GROUPS_MIGRATION = 'notification-groups-v1';
const UNREAD = 'unread';
const unreadOf = (type: string) => `unread_${type}`;
const allOf = (type: string) => `all_${type}`;

/** Storage internals and the consumer's bookkeeping never reach a client. */
const HIDDEN = ['_id', '__v', 'eventId', 'listed'] as const;
/** A pending one of the same group within this window stands in for a new event. */
const GROUP_WINDOW_MS = 24 * 60 * 60_000;
/** Documents read in parallel while walking a list. */
const BATCH = 50;

export interface NotificationView {
  id: string;
  type: NotificationType;
  recipientId: string;
  actorId: string;
  actorName?: string;
  actorIcon?: string;
  objectId?: string;
  objectType?: string;
  activityId?: string;
  summary: string;
  href: string;
  read: boolean;
  dismissed: boolean;
  groupKey?: string;
  createdAt: Date;
}

type Stored = NotificationView & { listed?: boolean; eventId?: string };

export interface NotificationFilter {
  types?: NotificationType[];
  unreadOnly?: boolean;
}

export interface NewNotification {
  id: string;
  type: NotificationType;
  recipientId: string;
  actorId: string;
  actorName: string;
  actorIcon?: string;
  objectId?: string;
  objectType?: string;
  activityId?: string;
  summary: string;
  href: string;
  groupKey: string;
  /** `<bus message id>|<type>|<recipient>`: one event makes at most one notification per recipient. */
  eventId: string;
}

function view(doc: Stored): NotificationView {
  const out: Record<string, unknown> = { ...doc };
  for (const f of HIDDEN) delete out[f];
  return out as unknown as NotificationView;
}

/** The tags a notification counts under while it is listed and not dismissed. */
function tagsOf(n: Pick<Stored, 'type' | 'read'>): string[] {
  return n.read ? [allOf(n.type)] : [allOf(n.type), UNREAD, unreadOf(n.type)];
}

export class NotificationsStore {
  constructor(
    private readonly models: Models,
    private readonly lists: ListStore,
  ) {}

  private get model() {
    return this.models.Notification;
  }

  /**
   * Builds the indexes (the consumer's idempotency rests on the unique `eventId` one, so the
   * service calls this before its first event) and lists notifications that are not listed yet:
   * written before the lists existed, or whose creation stopped between insert and append.
   * Cheap once done: one query for unlisted documents.
   */
  async prepare(): Promise<void> {
    await this.model.createIndexes();
    // A scan, once per start: documents written before the lists (or half-created) are rare.
    const unlisted = await this.model
      .find({ listed: { $ne: true } }, { _id: 1 })
      .lean<Array<{ _id: unknown }>>();
    // A document still under an ObjectId key waits for the key move (social's start, migrate.ts):
    // its list entry must name the key it will be read by.
    for (const { _id } of unlisted) if (typeof _id === 'string') await this.list(_id);
    await runOnce(this.models, GROUPS_MIGRATION, () => this.pointGroups());
  }

  /**
   * Points each group of the notifications stored before the pointers at its newest one (a scan,
   * once per database: `runOnce`). A pointer already written by a newer notification is kept
   * (`$setOnInsert`).
   */
  private async pointGroups(): Promise<void> {
    const rows = await this.model
      .find({ groupKey: { $type: 'string' } }, { _id: 1, recipientId: 1, groupKey: 1, createdAt: 1 })
      .lean<Array<{ _id: unknown; recipientId: string; groupKey: string; createdAt: Date }>>();
    const newest = new Map<string, { id: string; at: number }>();
    for (const r of rows) {
      if (typeof r._id !== 'string') continue;
      const key = GROUP(r.recipientId, r.groupKey);
      const at = new Date(r.createdAt).getTime();
      if ((newest.get(key)?.at ?? -Infinity) < at) newest.set(key, { id: r._id, at });
    }
    for (const [key, { id }] of newest)
      await this.models.NotificationGroup.updateOne(
        { _id: key },
        { $setOnInsert: { last: id } },
        { upsert: true },
      );
  }

  /**
   * Stores a notification and lists it for its recipient; false when the event already made
   * this notification (the unique `eventId`), in which case a copy left unlisted by a failed
   * earlier attempt is listed now.
   */
  async create(n: NewNotification): Promise<boolean> {
    try {
      await this.model.create({ ...n, _id: n.id, createdAt: new Date(), listed: false });
      await this.models.NotificationGroup.updateOne(
        { _id: GROUP(n.recipientId, n.groupKey) },
        { $set: { last: n.id } },
        { upsert: true },
      );
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      // A scan on FerretDB (the unique index serves it on MongoDB): only redelivered events.
      const earlier = await this.model.findOne({ eventId: n.eventId }, { _id: 1 }).lean<{ _id: string }>();
      if (earlier) await this.list(earlier._id);
      return false;
    }
    await this.list(n.id);
    return true;
  }

  /** Appends a stored notification to its recipient's list once (the `listed` flag is claimed first). */
  private async list(id: string): Promise<void> {
    const before = await this.model
      .findOneAndUpdate({ _id: id }, { $set: { listed: true } }, { returnDocument: 'before' })
      .lean<Stored>();
    if (!before || before.listed) return;
    const key = LIST(before.recipientId);
    await this.lists.append(
      key,
      [{ id, at: new Date(before.createdAt) }],
      before.dismissed ? [] : tagsOf(before),
    );
    // Listed already dismissed (only when listing old documents): it never counted.
    if (before.dismissed) await this.lists.uncount(key);
  }

  /**
   * Whether an earlier notification of the same group stands in for a new one, judged on the
   * group's newest notification (its pointer, then the notification: two `_id` reads): without a
   * cooldown, when it is pending (unread, not dismissed) and of the last day; with one, unless it
   * was seen and is older than the cooldown.
   */
  async groupPending(recipientId: string, groupKey: string, cooldownMs?: number): Promise<boolean> {
    const now = Date.now();
    const pointer = await this.models.NotificationGroup.findOne({ _id: GROUP(recipientId, groupKey) }).lean<{
      last?: string;
    }>();
    const last = pointer?.last
      ? await this.model
          .findOne({ _id: pointer.last }, { read: 1, dismissed: 1, createdAt: 1 })
          .lean<Pick<Stored, 'read' | 'dismissed' | 'createdAt'>>()
      : null;
    if (!last) return false;
    const created = new Date(last.createdAt).getTime();
    if (cooldownMs === undefined) return !last.read && !last.dismissed && created >= now - GROUP_WINDOW_MS;
    const seen = last.read || last.dismissed;
    return !(seen && created <= now - cooldownMs);
  }

  /** The recipient's notifications that are not dismissed, newest first, with the filter's total. */
  async pageFor(
    recipientId: string,
    filter: NotificationFilter,
    req: { skip: number; limit: number },
  ): Promise<{ total: number; items: NotificationView[] }> {
    const total = await this.countFor(recipientId, filter);
    const items: NotificationView[] = [];
    if (!total || req.limit <= 0) return { total, items };
    const types = filter.types?.length ? new Set<string>(filter.types) : null;
    let skip = req.skip;
    // Walks the list newest first; dismissed and filtered-out entries are skipped (a `types`
    // filter on a list of mostly other types reads more documents than the page holds).
    for await (const doc of this.walk(recipientId, Math.min(BATCH, req.skip + req.limit))) {
      if (doc.dismissed || (filter.unreadOnly && doc.read) || (types && !types.has(doc.type))) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      items.push(view(doc));
      if (items.length >= req.limit) break;
    }
    return { total, items };
  }

  /** GET /notifications/unread/count: the head's counters, O(1). */
  async unreadCount(recipientId: string, types?: NotificationType[]): Promise<number> {
    return this.countFor(recipientId, { unreadOnly: true, ...(types ? { types } : {}) });
  }

  private async countFor(recipientId: string, filter: NotificationFilter): Promise<number> {
    const head = await this.lists.head(LIST(recipientId));
    const tag = (name: string) => Math.max(0, Number(head.tags[name] ?? 0));
    if (filter.types?.length) {
      const of = filter.unreadOnly ? unreadOf : allOf;
      return [...new Set(filter.types)].reduce((sum, t) => sum + tag(of(t)), 0);
    }
    return filter.unreadOnly ? tag(UNREAD) : head.count;
  }

  /** Marks one of the recipient's notifications read or unread; null when it is not theirs. */
  async setRead(recipientId: string, id: string, read: boolean): Promise<NotificationView | null> {
    const before = await this.flipRead(recipientId, id, read);
    return before ? view({ ...before, read }) : null;
  }

  /** Sets the read flag; the document before (null when not theirs), counters moved once. */
  private async flipRead(recipientId: string, id: string, read: boolean): Promise<Stored | null> {
    const before = await this.change(recipientId, id, { read });
    if (before && before.read !== read && before.listed && !before.dismissed) {
      const by = read ? -1 : 1;
      await this.lists.retag(LIST(recipientId), { [UNREAD]: by, [unreadOf(before.type)]: by });
    }
    return before;
  }

  /** Hides one of the recipient's notifications from the list (no un-dismiss); null when not theirs. */
  async dismiss(recipientId: string, id: string): Promise<NotificationView | null> {
    const before = await this.change(recipientId, id, { dismissed: true });
    if (!before) return null;
    if (!before.dismissed && before.listed) await this.lists.uncount(LIST(recipientId), tagsOf(before));
    return view({ ...before, dismissed: true });
  }

  /**
   * Marks every unread notification of the recipient read, dismissed ones included (§6.4), of
   * the given types when any; how many changed. Walks the recipient's list (`_id` reads of
   * their own notifications, never the collection).
   */
  async readAll(recipientId: string, types?: NotificationType[]): Promise<number> {
    const only = types?.length ? new Set<string>(types) : null;
    let changed = 0;
    for await (const doc of this.walk(recipientId, BATCH)) {
      if (doc.read || (only && !only.has(doc.type))) continue;
      const before = await this.flipRead(recipientId, doc.id, true);
      if (before && !before.read) changed++;
    }
    return changed;
  }

  /** Sets fields on the recipient's notification; the document before, or null when not theirs. */
  private async change(recipientId: string, id: string, set: Partial<Stored>): Promise<Stored | null> {
    const current = await this.model
      .findOne({ _id: id }, { recipientId: 1 })
      .lean<Pick<Stored, 'recipientId'>>();
    if (!current || current.recipientId !== recipientId) return null;
    const before = await this.model
      .findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'before' })
      .lean<Stored>();
    return before;
  }

  /** The recipient's listed notifications newest first, read in batches by `_id`. */
  private async *walk(recipientId: string, batch: number): AsyncGenerator<Stored> {
    let ids: string[] = [];
    const load = async (some: string[]) =>
      (await Promise.all(some.map((id) => this.model.findOne({ _id: id }).lean<Stored>()))).filter(
        (d): d is Stored => !!d && d.recipientId === recipientId,
      );
    for await (const e of this.lists.newest([LIST(recipientId)])) {
      ids.push(e.id);
      if (ids.length < batch) continue;
      for (const d of await load(ids)) yield d;
      ids = [];
    }
    if (ids.length) for (const d of await load(ids)) yield d;
  }
}
