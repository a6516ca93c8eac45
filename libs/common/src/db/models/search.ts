import { Schema, type InferSchemaType } from 'mongoose';

/** Cached link previews (`_id` = SHA-256 of the normalised URL). */
export const linkPreviewSchema = new Schema(
  {
    _id: { type: String, required: true },
    url: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: null },
    /** Why the fetch gave nothing (cached too, so a dead link is not fetched on every view). */
    failure: { type: String, default: null },
    fetchedAt: { type: Date, required: true },
  },
  { collection: 'linkpreviews', versionKey: false, minimize: false },
);

export type LinkPreviewDoc = InferSchemaType<typeof linkPreviewSchema>;
