/**
 * Ordered lists kept by the stores (bucket pattern): a head document per list with its counters
 * and the time range of its newest buckets (older ranges in range-page documents beside it), and
 * bucket documents of about LIST_BUCKET_SIZE entries (lists/ranges.ts).
 * Every read and write is by `_id` (`<list>` for the head, `<list>#<n>` for bucket n), so a page
 * costs a head read and a bucket or two whatever the list's length, on FerretDB as on MongoDB
 * (ADR 0005).
 */
import { Schema, type InferSchemaType } from 'mongoose';

export const listHeadSchema = new Schema(
  {
    _id: { type: String },
    // Entries ever appended (positions; never decremented) and live entries (for totalItems).
    seq: { type: Number, default: 0 },
    count: { type: Number, default: 0 },
    // Live entries by tag (audience tier, post type): totals of filtered collections.
    tags: { type: Schema.Types.Mixed, default: undefined },
    // Entries per bucket (absent: 200, lists created before heads recorded it).
    bs: { type: Number, default: undefined },
    // Per bucket number: the oldest and newest `at` it holds (readers skip and order buckets).
    // The head keeps the newest range page's buckets; pages below `arch` moved to documents
    // `<list>~<page>` in this collection (same `lo`/`hi` fields).
    lo: { type: Schema.Types.Mixed, default: undefined },
    hi: { type: Schema.Types.Mixed, default: undefined },
    arch: { type: Number, default: undefined },
    plo: { type: Schema.Types.Mixed, default: undefined },
    phi: { type: Schema.Types.Mixed, default: undefined },
    // The moved pages' ranges live in the list's index document `<list>~i` (its `plo`/`phi`,
    // heads moved before it existed keep theirs here until the next move); the head keeps the
    // range of the whole index.
    ilo: { type: Date, default: undefined },
    ihi: { type: Date, default: undefined },
  },
  { collection: 'list_heads', versionKey: false, minimize: false },
);

export const listBucketSchema = new Schema(
  {
    _id: { type: String },
    items: { type: [Schema.Types.Mixed], default: [] },
  },
  { collection: 'list_buckets', versionKey: false },
);

/**
 * The reverse index of circle membership: for one member (local user, remote user or server),
 * the circles they are in and the groups those circles make them a member of. Audience
 * resolution and fan-out read this one document instead of scanning circles for `members.id`.
 */
export const membershipSchema = new Schema(
  {
    _id: { type: String },
    circles: { type: [String], default: [] },
    groups: { type: [String], default: [] },
  },
  { collection: 'memberships', versionKey: false },
);

export type ListHeadDoc = InferSchemaType<typeof listHeadSchema>;
export type ListBucketDoc = InferSchemaType<typeof listBucketSchema>;
export type MembershipDoc = InferSchemaType<typeof membershipSchema>;
