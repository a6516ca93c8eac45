/**
 * Reads and state changes of a recipient's notifications (behaviour-notes §6.4). Every query is
 * scoped to one recipient, so another user's notification id simply is not found. Values
 * reaching a filter are the token's user id, a string id and type names already checked
 * against the type list.
 */
import type { Paging, Runtime } from '@agora/common';
import type { NotificationType } from '@agora/common';

/** What clients get: the stored document without storage internals or the consumer's event key. */
const PUBLIC_FIELDS = { _id: 0, __v: 0, eventId: 0 } as const;

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

export interface ListFilter {
  types?: NotificationType[];
  unreadOnly?: boolean;
}

function typeFilter(types: NotificationType[] | undefined) {
  return types?.length ? { type: { $in: types } } : {};
}

export class NotificationStore {
  constructor(private readonly rt: Runtime) {}

  private get model() {
    return this.rt.repos.models.Notification;
  }

  /** The recipient's non-dismissed notifications, newest first. */
  async list(
    recipientId: string,
    filter: ListFilter,
    paging: Paging,
  ): Promise<{ total: number; items: NotificationView[] }> {
    const q = {
      recipientId,
      dismissed: false,
      ...(filter.unreadOnly ? { read: false } : {}),
      ...typeFilter(filter.types),
    };
    const [total, items] = await Promise.all([
      this.model.countDocuments(q),
      this.model
        .find(q, PUBLIC_FIELDS)
        .sort({ createdAt: -1, id: -1 })
        .skip(paging.skip)
        .limit(paging.limit)
        .lean<NotificationView[]>(),
    ]);
    return { total, items };
  }

  unreadCount(recipientId: string, types?: NotificationType[]): Promise<number> {
    return this.model.countDocuments({ recipientId, read: false, dismissed: false, ...typeFilter(types) });
  }

  /** Sets one notification's flag; null when it is not this recipient's. */
  async update(
    recipientId: string,
    id: string,
    set: { read: boolean } | { dismissed: true },
  ): Promise<NotificationView | null> {
    // FerretDB 1.24 has no projection on findAndModify, so the internals are dropped here.
    const doc = await this.model
      .findOneAndUpdate({ id, recipientId }, { $set: set }, { returnDocument: 'after' })
      .lean<NotificationView & Partial<Record<keyof typeof PUBLIC_FIELDS, unknown>>>();
    if (!doc) return null;
    const view: Record<string, unknown> = { ...doc };
    for (const hidden of Object.keys(PUBLIC_FIELDS)) delete view[hidden];
    return view as unknown as NotificationView;
  }

  /** Marks every unread one read, dismissed ones included (§6.4); returns how many changed. */
  async readAll(recipientId: string, types?: NotificationType[]): Promise<number> {
    const res = await this.model.updateMany(
      { recipientId, read: false, ...typeFilter(types) },
      { $set: { read: true } },
    );
    return res.modifiedCount;
  }
}
