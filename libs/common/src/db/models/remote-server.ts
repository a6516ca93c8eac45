import { Schema, type InferSchemaType } from 'mongoose';

/**
 * Another server this one pulls from (the poll worker): when it was last pulled successfully,
 * when it is due next (a lease: the worker that moves `nextPollAt` forward polls it), and how
 * many polls in a row failed (backoff).
 */
export const remoteServerSchema = new Schema(
  {
    _id: { type: String },
    domain: { type: String, required: true },
    lastPolledAt: { type: Date, default: null },
    nextPollAt: { type: Date, default: null },
    errorCount: { type: Number, default: 0 },
    lastError: { type: String, default: null },
  },
  { timestamps: true, collection: 'remote_servers' },
);

// One row per domain; the worker claims a due domain by a conditional update on it.
remoteServerSchema.index({ domain: 1 }, { unique: true });

export type RemoteServerDoc = InferSchemaType<typeof remoteServerSchema>;
