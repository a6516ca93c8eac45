/** Group, Page and Bookmark. */
import { Schema, type InferSchemaType } from 'mongoose';
import { actorRefSchema as actorRef, sourceSchema as source } from './shared';

export const RSVP_POLICIES = ['open', 'serverOpen', 'serverApproval', 'approvalOnly', 'inviteOnly'] as const;

export const groupSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Group' },
    type: { type: String, default: 'Group' },
    name: { type: String, required: true },
    description: String,
    icon: String,
    image: String,
    location: Schema.Types.Mixed,
    actorId: { type: String, required: true },
    actor: actorRef,
    server: String,
    url: String,
    inbox: String,
    outbox: String,
    originDomain: { type: String, default: null },
    to: { type: String, required: true },
    canReply: { type: String, required: true },
    canReact: { type: String, required: true },
    rsvpPolicy: { type: String, enum: RSVP_POLICIES, default: 'open' },
    // The group's circles: admins, moderators, members, pending (join requests), blocked.
    circles: { admins: String, moderators: String, members: String, pending: String, blocked: String },
    memberCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    replyCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'groups' },
);
groupSchema.index({ id: 1 }, { unique: true });
// GET /groups: by audience tier, newest first; the admin list filters by rsvpPolicy.
groupSchema.index({ to: 1, createdAt: -1 });
groupSchema.index({ rsvpPolicy: 1, createdAt: -1 });
// Audience resolution: the groups whose members circle the viewer is in.
groupSchema.index({ 'circles.members': 1 });

export const pageSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Page' },
    type: { type: String, enum: ['Page', 'Folder', 'Tombstone'], default: 'Page' },
    parentId: { type: String, default: null },
    order: { type: Number, default: 0 },
    url: String,
    actorId: { type: String, required: true },
    actor: actorRef,
    server: String,
    originDomain: { type: String, default: null },
    title: { type: String, required: true },
    slug: { type: String, required: true },
    summary: String,
    source: source,
    body: String,
    image: String,
    tags: { type: [String], default: [] },
    to: { type: String, required: true },
    canReply: { type: String, default: '' },
    canReact: { type: String, default: '' },
    replyCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    lastFetchedAt: Date,
    deletedAt: { type: Date, default: null },
    deletedBy: String,
    // The type before deletion (Page or Folder), so a restore brings it back.
    formerType: String,
  },
  { timestamps: true, collection: 'pages' },
);
pageSchema.index({ id: 1 }, { unique: true });
// GET /pages/:id by slug (local pages, and remote shadows keyed by origin).
pageSchema.index({ slug: 1, originDomain: 1 });
// Account deletion: tombstone one author's pages (AccountContentRepository.withdraw).
pageSchema.index({ actorId: 1 });
// GET /pages: public pages in order.
pageSchema.index({ to: 1, order: 1, createdAt: -1 });

export const bookmarkSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Bookmark' },
    type: { type: String, enum: ['Bookmark', 'Folder', 'Tombstone'], default: 'Bookmark' },
    actorId: { type: String, required: true },
    actor: actorRef,
    server: String,
    url: String,
    parentFolder: { type: String, default: null },
    href: String,
    target: String,
    title: String,
    summary: String,
    source: source,
    body: String,
    image: String,
    tags: { type: [String], default: [] },
    to: { type: String, required: true },
    canReply: { type: String, default: '' },
    canReact: { type: String, default: '' },
    replyCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'bookmarks' },
);
bookmarkSchema.index({ id: 1 }, { unique: true });
// GET /users/:id/bookmarks and folder listings: an owner's items by folder.
bookmarkSchema.index({ actorId: 1, parentFolder: 1, createdAt: -1 });
// GET /bookmarks: visible root items.
bookmarkSchema.index({ parentFolder: 1, to: 1, createdAt: -1 });

export type GroupDoc = InferSchemaType<typeof groupSchema>;
export type PageDoc = InferSchemaType<typeof pageSchema>;
export type BookmarkDoc = InferSchemaType<typeof bookmarkSchema>;
