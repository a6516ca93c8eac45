/**
 * Registration invites (behaviour-notes §2.4), created by admins through /admin/invites and
 * redeemed only inside registration (never by an unauthenticated redeem route: §11).
 */
import { Schema, type InferSchemaType } from 'mongoose';

export const INVITE_TYPES = ['individual', 'open'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

const redemptionSchema = new Schema(
  { userId: { type: String, required: true }, email: String, redeemedAt: { type: Date, required: true } },
  { _id: false },
);

export const inviteSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    // The admin who created it.
    actorId: { type: String, required: true },
    server: String,
    type: { type: String, enum: INVITE_TYPES, default: 'individual' },
    // Bound address of an individual invite; compared case-insensitively, so stored lower-cased.
    email: {
      type: String,
      lowercase: true,
      trim: true,
      required(this: { type?: string }) {
        return this.type !== 'open';
      },
    },
    code: { type: String, required: true },
    url: String,
    // null = unlimited; an individual invite is single-use (1).
    maxRedemptions: { type: Number, default: null },
    redemptionCount: { type: Number, default: 0 },
    redemptions: { type: [redemptionSchema], default: [] },
    active: { type: Boolean, default: true },
    expiresAt: { type: Date, default: null },
    note: { type: String, maxlength: 500 },
    welcomeMessage: { type: String, maxlength: 1000 },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'invites' },
);

// GET/DELETE /admin/invites/:id and the redemption update: one invite by id.
inviteSchema.index({ id: 1 }, { unique: true });
// GET /invites/:code and registration look an invite up by its code; unique so a (very
// unlikely) collision of two random codes fails the insert instead of sharing a code.
inviteSchema.index({ code: 1 }, { unique: true });
// GET /admin/invites: newest first, optionally narrowed by active/type (deletedAt null).
inviteSchema.index({ deletedAt: 1, createdAt: -1 });
// A plain index for "expired" sweeps and counts. Deliberately NOT a TTL index: FerretDB refuses
// them, and physically deleting expired invites would lose their redemption history.
inviteSchema.index({ expiresAt: 1 });

export type InviteDoc = InferSchemaType<typeof inviteSchema>;
