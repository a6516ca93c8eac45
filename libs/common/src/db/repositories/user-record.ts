/**
 * What a user is stored as (ADR 0013: one row per user, `_id` = the user's id `@name@domain`, so
 * a username is unique by the primary key), and the collection's indexes.
 */
import type { CollectionSpec } from '../engine/port';
import { adminListIndexes } from './admin-lists';

export type UserProfile = {
  name?: string;
  subtitle?: string;
  description?: string;
  urls?: string[];
  pronouns?: string;
  icon?: string;
  featuredImage?: string;
};

/** The ids of the user's system circles. */
export type UserCircles = {
  following: string;
  allFollowing: string;
  groups: string;
  blocked: string;
  muted: string;
};

export type AcknowledgedRule = {
  id: string;
  text: string;
  acknowledgedAt: Date;
};

/** A user as the store gives it out: no secrets. */
export type UserRecord = {
  id: string;
  objectType: string;
  type: string;
  username: string;
  domain?: string | null;
  server?: string | null;
  originDomain?: string | null;
  actorId?: string | null;
  url?: string | null;
  inbox?: string | null;
  outbox?: string | null;
  /** Lower-cased and trimmed; absent (never null) when the user gave none (a sparse unique index). */
  email?: string;
  emailVerified: boolean;
  profile: UserProfile;
  prefs: Record<string, unknown>;
  circles: UserCircles;
  to: string;
  canReply: string;
  canReact: string;
  postCount: number;
  /** Live public posts: the only count shown to others (a total would reveal private posts). */
  publicPostCount: number;
  replyCount: number;
  reactCount: number;
  active: boolean;
  lastLogin?: Date | null;
  acknowledgedRules: AcknowledgedRule[];
  deletedAt: Date | null;
  deletedBy?: string | null;
  /**
   * Set while an admin's soft delete lasts (ADR 0028): a reversible suspension, content kept for
   * the restore, peers told of a suspension rather than a deletion. Absent otherwise.
   */
  suspended?: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/** The fields no API returns; they leave the store only through `findForLogin`/`findWithSecrets`. */
export type UserSecrets = {
  password?: string;
  emailVerificationToken?: string;
  emailVerificationExpires?: Date;
  passwordResetToken?: string;
  passwordResetExpires?: Date;
};

export const SECRET_KEYS: ReadonlyArray<keyof UserSecrets> = [
  'password',
  'emailVerificationToken',
  'emailVerificationExpires',
  'passwordResetToken',
  'passwordResetExpires',
];

/** The stored row. */
export type StoredUser = UserRecord & UserSecrets & { _id: string };

export const USERS: CollectionSpec = {
  name: 'users',
  indexes: [
    {
      fields: [['email', 1]],
      unique: true,
      sparse: true,
      serves: 'a user by e-mail (registration, reset); one account per address',
    },
    { fields: [['emailVerificationToken', 1]], serves: 'e-mail verification by token hash' },
    { fields: [['passwordResetToken', 1]], serves: 'password reset by token hash' },
    {
      fields: [
        ['domain', 1],
        ['active', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /users: active local members, newest first; the suspended local accounts (suspendedIds)',
    },
    // The first (live, no `active`) also serves the live count and the live users in creation
    // order (the search backfill).
    ...adminListIndexes({
      fixed: [],
      optional: ['active'],
      sort: ['createdAt', -1],
      serves: 'GET /admin/users',
    }),
  ],
  dates: [
    'createdAt',
    'updatedAt',
    'deletedAt',
    'lastLogin',
    'emailVerificationExpires',
    'passwordResetExpires',
    'acknowledgedRules.acknowledgedAt',
  ],
};
