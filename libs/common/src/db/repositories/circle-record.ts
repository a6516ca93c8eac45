/**
 * What circles are stored as (ADR 0013): one row per circle in `circles`, holding its members
 * (with the copies lists show: name, icon, …), and the reverse index in `memberships`, one row
 * per (circle, member), so "the circles a member is in" is one indexed read and never a query
 * into the circles' arrays.
 */
import type { CollectionSpec } from '../engine/port';
import { adminListIndexes } from './admin-lists';

export type Member = {
  id: string;
  type?: string;
  name?: string;
  icon?: string;
  url?: string;
  inbox?: string;
  outbox?: string;
  server?: string;
};

export type StoredMember = Member & {
  addedAt: Date;
  /** Cached remote circles: the origin's revision this membership is known as of. */
  rev?: number;
};

export type CircleRecord = {
  id: string;
  objectType: string;
  type: string;
  name: string;
  summary?: string | null;
  icon?: string | null;
  url?: string | null;
  actorId: string;
  server?: string | null;
  /** Null for this server's circles (GET /circles lists only those). */
  originDomain: string | null;
  to: string;
  canReply: string;
  canReact: string;
  members: StoredMember[];
  /** Cached remote circles: members that left, as of the origin's revision (cached-membership.ts). */
  departed?: Array<{ id: string; rev: number }>;
  /** Cached remote circles: the newest revision a full snapshot spoke for (cached-membership.ts). */
  allRev?: number;
  /** The group whose membership this circle confers (a group's members circle). */
  grants: string | null;
  memberCount: number;
  reactCount: number;
  replyCount: number;
  reactSummary: Record<string, number>;
  lastSeenAt: Date | null;
  deletedAt: Date | null;
  deletedBy?: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The stored row. `__v` is the members' revision (as mongoose's version key, which every view
 * already drops): it moves with each change of `members`, and each such change is a
 * compare-and-set on it, so concurrent changes of one circle's members never undo each other.
 */
export type StoredCircle = CircleRecord & { _id: string; __v: number };

/** One member in one circle (the reverse index). */
export type MembershipRow = {
  /** `<circle>|<member>` (a circle id never holds `|`). */
  _id: string;
  memberId: string;
  circleId: string;
  /** The group the circle makes the member a member of. */
  group: string | null;
};

export const membershipKey = (circleId: string, memberId: string): string => `${circleId}|${memberId}`;

export const CIRCLES: CollectionSpec = {
  name: 'circles',
  indexes: [
    // Live ones by owner and type also serve GET /users/:id/circles (with or without `to`).
    ...adminListIndexes({
      fixed: ['type'],
      optional: ['actorId', 'to'],
      sort: ['createdAt', -1],
      serves: 'GET /admin/circles',
    }),
    {
      fields: [
        ['originDomain', 1],
        ['type', 1],
        ['to', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /circles: local circles of a type and audience, newest first',
    },
    {
      fields: [
        ['originDomain', 1],
        ['type', 1],
        ['to', 1],
        ['deletedAt', 1],
        ['reactCount', -1],
        ['memberCount', -1],
        ['createdAt', -1],
      ],
      serves: 'GET /circles?sort=reacts: most reacted first',
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
      ],
      serves: 'the live circles an account owns (account deletion)',
    },
    { fields: [['deletedAt', 1]], serves: 'every live circle (poll targets, the admin count); the GC' },
  ],
  dates: ['createdAt', 'updatedAt', 'deletedAt', 'lastSeenAt', 'members.addedAt'],
};

export const MEMBERSHIPS: CollectionSpec = {
  name: 'memberships',
  indexes: [
    {
      fields: [
        ['memberId', 1],
        ['circleId', 1],
      ],
      serves: 'the circles (and groups) a member is in: audience resolution, fan-out',
    },
  ],
};
