import { Schema, type InferSchemaType } from 'mongoose';

export const memberSchema = new Schema(
  {
    id: { type: String, required: true },
    type: { type: String, default: 'Person' },
    name: String,
    icon: String,
    url: String,
    inbox: String,
    outbox: String,
    server: String,
    addedAt: { type: Date, default: () => new Date() },
  },
  { _id: false },
);

export const circleSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'Circle' },
    type: { type: String, default: 'Circle' },
    name: { type: String, required: true },
    summary: String,
    icon: String,
    url: String,
    actorId: { type: String, required: true },
    server: String,
    originDomain: { type: String, default: null },
    to: { type: String, default: '' },
    canReply: { type: String, default: '' },
    canReact: { type: String, default: '' },
    members: { type: [memberSchema], default: [] },
    // The group whose membership this circle confers (a group's members circle).
    grants: { type: String, default: null },
    memberCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    replyCount: { type: Number, default: 0 },
    reactSummary: { type: Schema.Types.Mixed, default: () => ({}) },
    lastSeenAt: { type: Date, default: null },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'circles' },
);

// Detail lookups by id.
circleSchema.index({ id: 1 }, { unique: true });
// GET /users/:id/circles: an owner's circles by type.
circleSchema.index({ actorId: 1, type: 1, deletedAt: 1 });
// Membership checks and "circles I am in" (audience resolution).
circleSchema.index({ 'members.id': 1 });
// GET /circles: local circles by audience tier, newest first.
circleSchema.index({ originDomain: 1, type: 1, to: 1, createdAt: -1 });

export type CircleDoc = InferSchemaType<typeof circleSchema>;
