/**
 * Uploaded files (issue 12): the record is written only after the bytes are stored. Access
 * follows the parent object's audience once attached (`parentObject`), the file's own `to`
 * before that. Per-user storage use is a counter document, never a count over files.
 */
import { Schema, type InferSchemaType } from 'mongoose';

const variantSchema = new Schema(
  {
    key: { type: String, required: true },
    mediaType: { type: String, required: true },
    size: { type: Number, required: true },
    width: Number,
    height: Number,
  },
  { _id: false },
);

export const FILE_KINDS = ['Image', 'Video', 'Audio', 'Document'] as const;

export const fileSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'File' },
    type: { type: String, enum: FILE_KINDS, required: true },
    actorId: { type: String, required: true },
    /** A display name derived from the client's file name (never used in a storage key). */
    name: { type: String, default: '' },
    summary: { type: String, default: '' },
    mediaType: { type: String, required: true },
    size: { type: Number, required: true },
    width: Number,
    height: Number,
    /** SHA-256 hex of the stored bytes (after metadata stripping for images). */
    checksum: { type: String, required: true },
    storageKey: { type: String, required: true },
    preview: { type: variantSchema, default: null },
    /** Dominant colour `#rrggbb` of an image, a placeholder while it loads. */
    color: { type: String, default: null },
    to: { type: String, required: true },
    parentObject: { type: String, default: null },
    attachedAt: { type: Date, default: null },
    url: String,
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'files', minimize: false },
);
// Uniqueness of ids (reads go by `_id`, which is the id: ADR 0005).
fileSchema.index({ id: 1 }, { unique: true });
// GET /files: the owner's files, newest first.
fileSchema.index({ actorId: 1, createdAt: -1 });
// Files following a deleted parent (Delete of a post) and the orphan sweep of the GC.
fileSchema.index({ parentObject: 1, createdAt: 1 });
// The GC's sweep of deleted files.
fileSchema.index({ deletedAt: 1 });

/** One document per user (`_id` = user id): bytes and files stored, kept by the files store. */
export const storageUsageSchema = new Schema(
  {
    _id: { type: String, required: true },
    bytes: { type: Number, default: 0 },
    files: { type: Number, default: 0 },
  },
  { collection: 'storageusage', versionKey: false },
);

export type FileDoc = InferSchemaType<typeof fileSchema>;
export type StorageUsageDoc = InferSchemaType<typeof storageUsageSchema>;
