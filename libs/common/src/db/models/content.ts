/**
 * Content schemas: Post, Reply, React. Markdown `source` is rendered to sanitised HTML `body`
 * by the writer (services/social content module), never by a save hook.
 */
import { Schema, type InferSchemaType } from 'mongoose';
import { actorRefSchema as actorRef, sourceSchema as source } from './shared';

export const postSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Post' },
    type: { type: String, default: 'Note' }, // Note | Article | Media | Link | Event | Tombstone
    actorId: { type: String, required: true },
    actor: actorRef,
    server: String,
    originDomain: { type: String, default: null },
    url: String,
    title: String,
    summary: String,
    source: source,
    body: String,
    href: String,
    image: String,
    attachments: { type: [String], default: [] },
    tags: { type: [String], default: [] },
    location: Schema.Types.Mixed,
    event: { startDate: Date, endDate: Date },
    to: { type: String, required: true },
    canReply: { type: String, required: true },
    canReact: { type: String, required: true },
    group: { type: String, default: null },
    // The circles whose timelines hold this post (written by fan-out and backfill).
    circles: { type: [String], default: [] },
    replyCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    publishedAt: { type: Date, default: () => new Date() },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
    // The type a deleted post had before it became a Tombstone, so a restore brings it back.
    formerType: String,
  },
  { timestamps: true, collection: 'posts', minimize: false },
);
// Detail lookups.
postSchema.index({ id: 1 }, { unique: true });
// GET /users/:id/posts: an author's posts, newest first.
postSchema.index({ actorId: 1, publishedAt: -1 });
// GET /posts: local posts by audience tier, newest first.
postSchema.index({ to: 1, publishedAt: -1 });
// GET /groups/:id/posts.
postSchema.index({ group: 1, publishedAt: -1 });

export const replySchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Reply' },
    type: { type: String, default: 'Reply' },
    actorId: { type: String, required: true },
    actor: actorRef,
    server: String,
    url: String,
    target: { type: String, required: true }, // thread root (post, page, …)
    parent: { type: String, required: true }, // first-level reply or the root
    source: source,
    body: String,
    replyCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'replies', minimize: false },
);
replySchema.index({ id: 1 }, { unique: true });
// GET /posts/:id/replies: a thread in order.
replySchema.index({ target: 1, createdAt: 1 });
// Reply content de-duplication (same actor, same parent, recent).
replySchema.index({ actorId: 1, parent: 1, createdAt: -1 });

export const reactSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'React' },
    actorId: { type: String, required: true },
    actor: actorRef,
    target: { type: String, required: true },
    emoji: { type: String, required: true },
    name: String,
    server: String,
  },
  { timestamps: true, collection: 'reacts' },
);
reactSchema.index({ id: 1 }, { unique: true });
// One reaction per (actor, target); also `myReact` lookups.
reactSchema.index({ target: 1, actorId: 1 }, { unique: true });
// GET /posts/:id/reacts, newest first.
reactSchema.index({ target: 1, createdAt: -1 });

/**
 * A reaction's public id (`react:…`) to its key (`<target>|<actor>`): Update and Delete name a
 * reaction by its id, which FerretDB would find only by scanning `reacts` (ADR 0011 item 15).
 */
export const reactIdSchema = new Schema(
  {
    _id: { type: String },
    key: { type: String, required: true },
  },
  { collection: 'react_ids', versionKey: false },
);

export type PostDoc = InferSchemaType<typeof postSchema>;
export type ReplyDoc = InferSchemaType<typeof replySchema>;
export type ReactDoc = InferSchemaType<typeof reactSchema>;
