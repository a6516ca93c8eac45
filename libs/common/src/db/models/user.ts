import { Schema, type InferSchemaType } from 'mongoose';

const profileSchema = new Schema(
  {
    name: String,
    subtitle: String,
    description: String,
    urls: { type: [String], default: [] },
    pronouns: String,
    icon: String,
    featuredImage: String,
  },
  { _id: false },
);

export const userSchema = new Schema(
  {
    _id: { type: String },
    id: { type: String, required: true },
    objectType: { type: String, default: 'User' },
    type: { type: String, default: 'Person' },
    username: { type: String, required: true },
    domain: String,
    server: String,
    originDomain: String,
    actorId: String,
    url: String,
    inbox: String,
    outbox: String,
    password: { type: String, select: false },
    email: { type: String, lowercase: true, trim: true },
    emailVerified: { type: Boolean, default: false },
    emailVerificationToken: { type: String, select: false },
    emailVerificationExpires: { type: Date, select: false },
    passwordResetToken: { type: String, select: false },
    passwordResetExpires: { type: Date, select: false },
    profile: { type: profileSchema, default: () => ({}) },
    prefs: { type: Schema.Types.Mixed, default: () => ({}) },
    circles: {
      following: { type: String, default: '' },
      allFollowing: { type: String, default: '' },
      groups: { type: String, default: '' },
      blocked: { type: String, default: '' },
      muted: { type: String, default: '' },
    },
    to: { type: String, default: '@public' },
    canReply: { type: String, default: '@public' },
    canReact: { type: String, default: '@public' },
    postCount: { type: Number, default: 0 },
    /** Live public posts: the only count shown to others (a total would reveal private posts). */
    publicPostCount: { type: Number, default: 0 },
    replyCount: { type: Number, default: 0 },
    reactCount: { type: Number, default: 0 },
    active: { type: Boolean, default: true },
    lastLogin: Date,
    acknowledgedRules: {
      type: [{ id: String, text: String, acknowledgedAt: Date, _id: false }],
      default: [],
    },
    deletedAt: { type: Date, default: null },
    deletedBy: String,
  },
  { timestamps: true, collection: 'users' },
);

// Lookup by id (every authenticated request, GET /users/:id).
userSchema.index({ id: 1 }, { unique: true });
// Login and registration uniqueness by username.
userSchema.index({ username: 1, domain: 1 }, { unique: true });
// Password reset / verification by e-mail; sparse because e-mail is optional.
userSchema.index({ email: 1 }, { unique: true, sparse: true });
// E-mail verification and password reset look a user up by the hash of their token.
userSchema.index({ emailVerificationToken: 1 }, { sparse: true });
userSchema.index({ passwordResetToken: 1 }, { sparse: true });
// GET /users: active, not deleted, newest first.
userSchema.index({ active: 1, deletedAt: 1, createdAt: -1 });

export type UserDoc = InferSchemaType<typeof userSchema>;
