import { Schema, type InferSchemaType } from 'mongoose';

/** The activity audit log: every accepted activity, as stored (no secrets). */
export const activitySchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    type: { type: String, required: true },
    actorId: { type: String, required: true },
    objectType: String,
    objectId: String,
    target: String,
    to: String,
    object: Schema.Types.Mixed,
    summary: String,
    server: String,
    remoteId: String,
    // Inbound (POST /inbox): the activity as received, and where its processing stands.
    raw: String,
    inbound: {
      type: new Schema(
        {
          status: {
            type: String,
            enum: ['accepted', 'processed', 'ignored', 'rejected'],
            default: 'accepted',
          },
          keyId: String,
          receivedAt: Date,
          processedAt: Date,
          reason: String,
        },
        { _id: false },
      ),
      default: undefined,
    },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'activities', strict: false, minimize: false },
);

// Lookup by id.
activitySchema.index({ id: 1 }, { unique: true });
// GET /admin/activities filters by type/actor, newest first.
activitySchema.index({ actorId: 1, createdAt: -1 });
activitySchema.index({ type: 1, createdAt: -1 });
// Inbound idempotency: an activity id seen before is not processed twice.
activitySchema.index({ remoteId: 1 }, { unique: true, sparse: true });

export type ActivityDoc = InferSchemaType<typeof activitySchema>;

/**
 * Events of recorded activities that the broker has not confirmed yet (the transactional
 * outbox): written before the activity, deleted once published; the relay republishes what is
 * left. It stays small, so the relay's scan is cheap whatever the size of the activity log.
 */
export const eventOutboxSchema = new Schema(
  {
    _id: { type: String },
    events: { type: Schema.Types.Mixed, default: [] },
    // Posts whose circle fan-out was deferred past the response (ADR 0011 item 13): the relay
    // finishes it before it republishes a row left behind.
    fanOut: { type: [String], default: undefined },
    createdAt: { type: Date, default: () => new Date() },
  },
  { collection: 'event_outbox', versionKey: false, minimize: false },
);

export type EventOutboxDoc = InferSchemaType<typeof eventOutboxSchema>;
