/** Flag (groups, pages and bookmarks are stores over the engine port: content-records.ts). */
import { Schema, type InferSchemaType } from 'mongoose';

export const flagSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    target: { type: String, required: true },
    targetType: String,
    targetActorId: String,
    reason: { code: String, label: String, description: String, details: String },
    notes: String,
    actorId: { type: String, required: true },
    status: { type: String, enum: ['open', 'resolved', 'dismissed'], default: 'open' },
    resolvedAt: Date,
    resolvedBy: String,
    server: String,
  },
  { timestamps: true, collection: 'flags' },
);
flagSchema.index({ id: 1 }, { unique: true });
// GET /admin/flagged: queue by status, newest first; duplicate check per actor and target.
flagSchema.index({ status: 1, createdAt: -1 });
flagSchema.index({ actorId: 1, target: 1, status: 1 });

export type FlagDoc = InferSchemaType<typeof flagSchema>;
