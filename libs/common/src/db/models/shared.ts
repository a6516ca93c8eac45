/** Sub-schemas several content models embed. */
import { Schema } from 'mongoose';

/** The denormalised author copy stored on content (refreshed on `user.updated`). */
export const actorRefSchema = new Schema(
  { id: String, type: String, name: String, icon: String, url: String, server: String },
  { _id: false },
);

/** A markdown source; the rendered, sanitised HTML lives beside it in `body`. */
export const sourceSchema = new Schema(
  { content: { type: String, default: '' }, mediaType: { type: String, default: 'text/markdown' } },
  { _id: false },
);
