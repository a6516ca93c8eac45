import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A remote actor following a local user (inbound `Follow`, removed by `Undo`): where the local
 * user's public posts are delivered.
 */
export const remoteFollowerSchema = new Schema(
  {
    _id: { type: String },
    userId: { type: String, required: true },
    actorId: { type: String, required: true },
    domain: { type: String, required: true },
    inbox: { type: String, required: true },
  },
  { timestamps: true, collection: 'remote_followers' },
);

// One row per (local user, remote actor); the delivery planner reads a user's rows.
remoteFollowerSchema.index({ userId: 1, actorId: 1 }, { unique: true });

export type RemoteFollowerDoc = InferSchemaType<typeof remoteFollowerSchema>;
