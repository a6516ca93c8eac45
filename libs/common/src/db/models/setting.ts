import { Schema, type InferSchemaType } from 'mongoose';

export const settingSchema = new Schema(
  {
    _id: { type: String },
    name: { type: String, required: true },
    value: { type: Schema.Types.Mixed },
    summary: String,
    to: { type: String, default: '@public' },
    canEdit: { type: String, default: '@admin' },
    ui: {
      type: { type: String, default: 'text' },
      label: String,
      group: String,
      order: Number,
      options: Schema.Types.Mixed,
    },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'settings', minimize: false },
);

// Every settings read is by name.
settingSchema.index({ name: 1 }, { unique: true });

export type SettingDoc = InferSchemaType<typeof settingSchema>;
