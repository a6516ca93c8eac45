/**
 * Events about accounts, defined once for producers and consumers (issue 8: one definition per
 * event). `user.deleted` is published by a user deleting their own account (social's Delete
 * activity) and by an admin (DELETE /admin/users/:id, `hard` for a full delete);
 * `user.restored` by an admin restoring one (POST /admin/users/:id/restore).
 */
import { z } from 'zod';
import type { DomainEvent } from './activity-events';

export const USER_DELETED = 'user.deleted';
export const userDeleted = z.object({
  userId: z.string().min(1),
  /** Who deleted it: the user themselves or an admin. */
  actorId: z.string().min(1),
  /** The document is gone for good (admin full delete), not only soft-deleted. */
  hard: z.boolean().optional(),
});
export type UserDeleted = z.infer<typeof userDeleted>;

export const USER_RESTORED = 'user.restored';
export const userRestored = z.object({ userId: z.string().min(1), actorId: z.string().min(1) });
export type UserRestored = z.infer<typeof userRestored>;

export const userDeletedEvent = (p: UserDeleted): DomainEvent => ({
  name: USER_DELETED,
  payload: userDeleted.parse(p),
});
export const userRestoredEvent = (p: UserRestored): DomainEvent => ({
  name: USER_RESTORED,
  payload: userRestored.parse(p),
});

/** The names the federation planner and the Delete handler use. */
export const userDeletedPayload = userDeleted;
export type UserDeletedPayload = UserDeleted;
