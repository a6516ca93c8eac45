import { Schema, type InferSchemaType } from 'mongoose';

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

/**
 * One notification for one local recipient, written only by the notifications service's event
 * consumer (behaviour-notes §2.4, §6). `objectType` is free text: the reference's enum rejected
 * `User`, so follow notifications could never be stored (§11).
 */
export const notificationSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    type: { type: String, enum: NOTIFICATION_TYPES, required: true },
    recipientId: { type: String, required: true },
    actorId: { type: String, required: true },
    actorName: String,
    actorIcon: String,
    objectId: String,
    objectType: String,
    activityId: String,
    summary: { type: String, required: true },
    href: { type: String, required: true },
    read: { type: Boolean, default: false },
    dismissed: { type: Boolean, default: false },
    groupKey: String,
    // `<bus message id>|<type>|<recipient>`: one event makes at most one notification per recipient.
    eventId: String,
    // Appended to the recipient's list (NotificationsStore): claimed before the append, once.
    listed: { type: Boolean, default: false },
    createdAt: { type: Date, default: () => new Date() },
  },
  { collection: 'notifications' },
);

// Reads and writes of one notification are by `_id` (its id); pages and counts come from the
// recipient's list (NotificationsStore). Kept so ids stay unique however a document was written.
notificationSchema.index({ id: 1 }, { unique: true });
// Consumer idempotency: a redelivered event hits this index (duplicate key) instead of inserting
// again. Sparse so a notification written without an event (none today) does not collide on null.
notificationSchema.index({ eventId: 1 }, { unique: true, sparse: true });
// The start-up pass that points each group at its newest notification (NotificationsStore).
notificationSchema.index({ recipientId: 1, groupKey: 1, createdAt: -1 });

/**
 * The newest notification of each (recipient, groupKey), e.g. `reply:<root>`: `_id` is
 * `<recipient>|<groupKey>`, so the consumer's grouping check is two `_id` reads (this, then the
 * notification) instead of a scan of every notification on the embedded engine.
 */
export const notificationGroupSchema = new Schema(
  {
    _id: { type: String, required: true },
    last: { type: String, required: true },
  },
  { collection: 'notification_groups', versionKey: false },
);

export type NotificationDoc = InferSchemaType<typeof notificationSchema>;
