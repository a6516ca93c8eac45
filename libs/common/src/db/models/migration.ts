import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A data migration that ran to the end (`_id` names it). Start-up reads it by `_id` and skips the
 * migration's search for work, which on FerretDB is a scan of every collection it touches.
 */
export const migrationSchema = new Schema(
  {
    _id: { type: String, required: true },
    doneAt: { type: Date, required: true },
  },
  { collection: 'migrations', versionKey: false },
);

export type MigrationDoc = InferSchemaType<typeof migrationSchema>;
