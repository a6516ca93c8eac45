import { Schema, type InferSchemaType } from 'mongoose';

/** The activity audit log: every accepted activity, as stored (no secrets). */
export const activitySchema = new Schema(
  {
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
    dedupeKey: String,
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
    // Events to publish for this activity, and whether the broker confirmed them (relay).
    events: { type: Schema.Types.Mixed, default: undefined },
    published: { type: Boolean, default: true },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'activities', strict: false, minimize: false },
);

// Lookup by id.
activitySchema.index({ id: 1 }, { unique: true });
// GET /admin/activities filters by type/actor, newest first.
activitySchema.index({ actorId: 1, createdAt: -1 });
activitySchema.index({ type: 1, createdAt: -1 });
// The event relay: stored activities whose events are not yet published.
activitySchema.index({ published: 1, createdAt: 1 });
// Inbound idempotency: an activity id seen before is not processed twice.
activitySchema.index({ remoteId: 1 }, { unique: true, sparse: true });
// Client Idempotency-Key per actor.
activitySchema.index({ dedupeKey: 1 }, { unique: true, sparse: true });

export type ActivityDoc = InferSchemaType<typeof activitySchema>;
