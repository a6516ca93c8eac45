/**
 * Notifications (behaviour-notes §6, decisions.md §7): written by the notifications consumer,
 * read and flagged by their recipient. One collection over the engine port (ADR 0013): a
 * recipient's page, total and unread count are reads of one index each, `(recipientId,
 * dismissed, [read], [type], createdAt)`, newest first by `(createdAt, _id)` (the lists' order,
 * `lists/cursor.ts` `newestFirst`), so they cost what the page or the count holds, whatever the
 * size of the collection. Every flag change is one atomic update of one document; the counts are
 * read from the documents, so no counter can drift from them.
 *
 * Grouping (at most one pending notification per `(recipient, groupKey)`) is exact under
 * concurrency: each notification of a group takes the next place of that group (`groupSeq`),
 * unique per group, so of two consumers that both judged the group's newest one not pending,
 * only one inserts; the other finds its place taken by a notification that is new, hence
 * pending, and groups.
 */
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Engine,
  type Filter,
} from '../engine/port';

/** decisions.md §7. `invite` is kept for invite redemption (no event produces it yet). */
export const NOTIFICATION_TYPES = [
  'reply',
  'react',
  'mention',
  'follow',
  'new_post',
  'join_request',
  'join_approved',
  'invite',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A pending one of the same group within this window stands in for a new event. */
const GROUP_WINDOW_MS = 24 * 60 * 60_000;

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

/** As stored: the view plus the store's bookkeeping, which never reaches a client. */
interface NotificationDoc extends NotificationView {
  _id: string;
  groupKey: string;
  /** Its place in its group: 1, 2, … (unique per recipient and groupKey). */
  groupSeq: number;
  /** `<bus message id>|<type>|<recipient>`: one event makes at most one notification per recipient. */
  eventId: string;
}

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
  /** When it happened; now by default (a second replica's fixtures set it). */
  createdAt?: Date;
}

/**
 * When an earlier notification of the same group stands in for a new one: without a cooldown,
 * while it is pending (unread, not dismissed) and of the last day; with one (digests), unless it
 * was seen and is older than the cooldown.
 */
export interface GroupRule {
  cooldownMs?: number;
}

export type CreateOutcome = 'created' | 'duplicate' | 'grouped';

export const NOTIFICATIONS: CollectionSpec = {
  name: 'notifications',
  indexes: [
    { fields: [['eventId', 1]], unique: true, serves: 'create: a redelivered event (consumer idempotency)' },
    {
      fields: [
        ['recipientId', 1],
        ['groupKey', 1],
        ['groupSeq', 1],
      ],
      unique: true,
      serves: "create: the group's newest notification; one notification per place in a group",
    },
    {
      fields: [
        ['recipientId', 1],
        ['dismissed', 1],
        ['createdAt', -1],
      ],
      serves: "pageFor and its total: the recipient's notifications, newest first",
    },
    {
      fields: [
        ['recipientId', 1],
        ['dismissed', 1],
        ['read', 1],
        ['createdAt', -1],
      ],
      serves: 'pageFor / unreadCount (unread only); readAll',
    },
    {
      fields: [
        ['recipientId', 1],
        ['dismissed', 1],
        ['type', 1],
        ['createdAt', -1],
      ],
      serves: 'pageFor and its total with `types`',
    },
    {
      fields: [
        ['recipientId', 1],
        ['dismissed', 1],
        ['read', 1],
        ['type', 1],
        ['createdAt', -1],
      ],
      serves: 'pageFor / unreadCount with `types` (unread only); readAll with `types`',
    },
    {
      fields: [
        ['recipientId', 1],
        ['actorId', 1],
        ['createdAt', -1],
      ],
      serves: "the recipient's notifications from suspended accounts (left out of pageFor and unreadCount)",
    },
  ],
  dates: ['createdAt'],
};

/** Newest first; ties in one millisecond by id (cursor.ts `newestFirst`, both engines alike). */
const NEWEST = [
  ['createdAt', -1],
  ['_id', -1],
] as const;

function view(doc: NotificationDoc): NotificationView {
  const { _id, groupSeq, eventId, ...shown } = doc;
  void _id;
  void groupSeq;
  void eventId;
  return shown;
}

/** A `type` condition: one type is an equality, several an `$in` (both served by the type indexes). */
function typeCondition(types: readonly NotificationType[] | undefined): Filter {
  const unique = [...new Set(types ?? [])];
  if (!unique.length) return {};
  return { type: unique.length === 1 ? unique[0]! : { $in: unique } };
}

export class NotificationsStore {
  private readonly rows: Collection<NotificationDoc>;

  constructor(private readonly engine: Engine) {
    this.rows = engine.collection<NotificationDoc>(NOTIFICATIONS);
  }

  /**
   * Builds the collection and its indexes: the consumer's idempotency rests on the unique
   * `eventId` one, so the service calls this before its first event. Safe at every start.
   */
  async prepare(): Promise<void> {
    await this.engine.ensure([NOTIFICATIONS]);
  }

  /**
   * Stores a notification unless the event already made it (`duplicate`) or an earlier one of
   * its group stands in for it (`grouped`, by `rule`).
   */
  async create(n: NewNotification, rule: GroupRule = {}): Promise<CreateOutcome> {
    if (await this.rows.findOne({ eventId: n.eventId }, { fields: ['_id'] })) return 'duplicate';
    const now = Date.now();
    const last = await this.rows.findOne(
      { recipientId: n.recipientId, groupKey: n.groupKey },
      { sort: [['groupSeq', -1]], fields: ['read', 'dismissed', 'createdAt', 'groupSeq'] },
    );
    if (last && standsIn(last, rule, now)) return 'grouped';
    const { createdAt, ...fields } = n;
    const doc: NotificationDoc = {
      ...stripUndefined(fields),
      _id: n.id,
      read: false,
      dismissed: false,
      groupSeq: (last?.groupSeq ?? 0) + 1,
      createdAt: createdAt ?? new Date(now),
    };
    try {
      await this.rows.insertOne(doc);
      return 'created';
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // The same event stored meanwhile (a redelivery racing the first delivery), or another
      // notification of the group took this place first: that one is new and unread, so it
      // stands in for this one under either rule.
      return (await this.rows.findOne({ eventId: n.eventId }, { fields: ['_id'] })) ? 'duplicate' : 'grouped';
    }
  }

  /**
   * The recipient's notifications that are not dismissed, newest first, with the filter's total.
   * Those from `hiddenActors` (suspended accounts, ADR 0028) are left out of both: they are read
   * first by their own index (what the recipient holds from those actors, usually nothing), the
   * total is the count less theirs, and the page is read from `skip` with room for every one of
   * them, each row's place among the kept ones told by how many hidden rows sort before it.
   */
  async pageFor(
    recipientId: string,
    filter: NotificationFilter,
    req: { skip: number; limit: number },
    hiddenActors: ReadonlySet<string> = new Set(),
  ): Promise<{ total: number; items: NotificationView[] }> {
    const where = this.visible(recipientId, filter);
    const [hidden, count] = await Promise.all([
      this.fromActors(recipientId, filter, hiddenActors),
      this.rows.count(where),
    ]);
    const total = Math.max(0, count - hidden.length);
    // A limit of 0 means "no limit" to MongoDB and "none" to SQLite: never ask for it.
    if (req.limit <= 0) return { total, items: [] };
    const docs = await this.rows.find(where, {
      sort: NEWEST,
      skip: req.skip,
      limit: req.limit + hidden.length,
    });
    if (!hidden.length) return { total, items: docs.map(view) };
    const ids = new Set(hidden.map((h) => h._id));
    const items: NotificationView[] = [];
    docs.forEach((doc, i) => {
      if (ids.has(doc._id) || items.length >= req.limit) return;
      // Its place among the kept ones: its place in the full order less the hidden before it.
      const place = req.skip + i - hidden.filter((h) => sortsBefore(h, doc)).length;
      if (place >= req.skip) items.push(view(doc));
    });
    return { total, items };
  }

  /** GET /notifications/unread/count: unread and not dismissed, of the given types when any, not from `hiddenActors`. */
  async unreadCount(
    recipientId: string,
    types?: NotificationType[],
    hiddenActors: ReadonlySet<string> = new Set(),
  ): Promise<number> {
    const filter = { unreadOnly: true, ...(types ? { types } : {}) };
    const [hidden, count] = await Promise.all([
      this.fromActors(recipientId, filter, hiddenActors),
      this.rows.count(this.visible(recipientId, filter)),
    ]);
    return Math.max(0, count - hidden.length);
  }

  /** The recipient's notifications from these actors that the filter would list (keys and order only). */
  private async fromActors(
    recipientId: string,
    filter: NotificationFilter,
    actors: ReadonlySet<string>,
  ): Promise<Array<Pick<NotificationDoc, '_id' | 'createdAt'>>> {
    if (!actors.size) return [];
    const rows = await this.rows.find(
      { recipientId, actorId: { $in: [...actors] } },
      { fields: ['createdAt', 'dismissed', 'read', 'type'] },
    );
    const types = filter.types?.length ? new Set<string>(filter.types) : null;
    return rows.filter(
      (r) => !r.dismissed && (!filter.unreadOnly || !r.read) && (!types || types.has(r.type)),
    );
  }

  /** Marks one of the recipient's notifications read or unread; null when it is not theirs. */
  async setRead(recipientId: string, id: string, read: boolean): Promise<NotificationView | null> {
    const after = await this.rows.findOneAndUpdate({ _id: id, recipientId }, { $set: { read } });
    return after ? view(after) : null;
  }

  /** Hides one of the recipient's notifications from the list (no un-dismiss); null when not theirs. */
  async dismiss(recipientId: string, id: string): Promise<NotificationView | null> {
    const after = await this.rows.findOneAndUpdate({ _id: id, recipientId }, { $set: { dismissed: true } });
    return after ? view(after) : null;
  }

  /**
   * Marks every unread notification of the recipient read, dismissed ones included (§6.4), of
   * the given types when any; how many changed. Each document changes atomically and only while
   * unread, so concurrent calls count each notification once between them.
   */
  async readAll(recipientId: string, types?: NotificationType[]): Promise<number> {
    return this.rows.updateMany(
      // Both dismissed states, spelled as an `$in` so the unread indexes serve it.
      { recipientId, dismissed: { $in: [false, true] }, read: false, ...typeCondition(types) },
      { $set: { read: true } },
    );
  }

  private visible(recipientId: string, filter: NotificationFilter): Filter {
    return {
      recipientId,
      dismissed: false,
      ...(filter.unreadOnly ? { read: false } : {}),
      ...typeCondition(filter.types),
    };
  }
}

/** Whether `a` comes before `b` newest first (NEWEST: time, then id). */
function sortsBefore(
  a: Pick<NotificationDoc, '_id' | 'createdAt'>,
  b: Pick<NotificationDoc, '_id' | 'createdAt'>,
): boolean {
  const ta = new Date(a.createdAt).getTime();
  const tb = new Date(b.createdAt).getTime();
  return ta !== tb ? ta > tb : a._id > b._id;
}

/** Whether the group's newest notification stands in for a new one (GroupRule). */
function standsIn(
  last: Pick<NotificationDoc, 'read' | 'dismissed' | 'createdAt'>,
  rule: GroupRule,
  now: number,
): boolean {
  const created = new Date(last.createdAt).getTime();
  if (rule.cooldownMs === undefined) return !last.read && !last.dismissed && created >= now - GROUP_WINDOW_MS;
  const seen = last.read || last.dismissed;
  return !(seen && created <= now - rule.cooldownMs);
}

/** Optional fields given as `undefined` are left out (both engines then store nothing). */
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
