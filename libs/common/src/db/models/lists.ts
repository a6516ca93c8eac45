import { Schema, type InferSchemaType } from 'mongoose';

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

export type MembershipDoc = InferSchemaType<typeof membershipSchema>;
