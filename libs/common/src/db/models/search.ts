/**
 * The search index (docs/adr/0008-search-prefix-terms.md): one document per searchable object,
 * `_id` = the object's id, holding the normalised prefixes of its words as `terms`. A search is
 * an equality match on `terms`, which FerretDB pushes down and MongoDB serves from a multikey
 * index; `$text` exists on neither side of our compatibility line.
 */
import { Schema, type InferSchemaType } from 'mongoose';

export const SEARCH_KINDS = ['User', 'Post', 'Page', 'Group', 'Bookmark'] as const;

export const searchEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: SEARCH_KINDS, required: true },
    terms: { type: [String], default: [] },
    /** Copies for a cheap first audience filter; the object itself is checked before answering. */
    to: { type: String, default: '' },
    actorId: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'searchindex', versionKey: false },
);
// GET /search: objects holding a term (multikey), newest first.
searchEntrySchema.index({ terms: 1, at: -1 });
// GET /search?type=…: the same within one kind.
searchEntrySchema.index({ kind: 1, terms: 1, at: -1 });

export type SearchEntryDoc = InferSchemaType<typeof searchEntrySchema>;
