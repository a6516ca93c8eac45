/**
 * Curation behind the public Discover feed (spec 2 Recommendation and Section, 4.5): sections
 * (shelves) and the recommendations placed on them. Both are server content: the server actor
 * owns them, admins write them through /admin.
 */
import { Schema, type InferSchemaType } from 'mongoose';

export const sectionSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Section' },
    name: { type: String, required: true },
    slug: String,
    summary: { type: String, default: '' },
    order: { type: Number, default: 0 },
    to: { type: String, required: true },
    active: { type: Boolean, default: true },
    actorId: { type: String, required: true },
    server: String,
    url: String,
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'sections' },
);
// Lookups by id go through `_id` (= id); the id index keeps ids unique.
sectionSchema.index({ id: 1 }, { unique: true });
// GET /recommendations (active live sections in order) and GET /admin/sections (in order).
sectionSchema.index({ deletedAt: 1, active: 1, order: 1 });

export const REF_TYPES = ['Post', 'Circle', 'Group', 'Bookmark', 'Page'] as const;
export type RefType = (typeof REF_TYPES)[number];

export const recommendationSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Recommendation' },
    section: { type: String, required: true },
    ref: { type: String, required: true },
    refType: { type: String, enum: REF_TYPES, required: true },
    note: { type: String, default: '' },
    order: { type: Number, default: 0 },
    active: { type: Boolean, default: true },
    // The target's tier when it was added: bookkeeping only (spec 2); reads check the live target.
    visibility: { type: String, enum: ['public', 'server'], required: true },
    addedBy: String,
    actorId: { type: String, required: true },
    server: String,
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'recommendations' },
);
// Lookups by id go through `_id` (= id); the id index keeps ids unique.
recommendationSchema.index({ id: 1 }, { unique: true });
// GET /recommendations: one section's live entries in order (top-level equality on section);
// full delete of a section removes its entries.
recommendationSchema.index({ section: 1, order: 1 });
// GET /admin/recommendations?refType=: the admin list by target type.
recommendationSchema.index({ refType: 1, createdAt: -1 });

export type SectionDoc = InferSchemaType<typeof sectionSchema>;
export type RecommendationDoc = InferSchemaType<typeof recommendationSchema>;
