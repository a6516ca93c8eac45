/**
 * `user.deleted`: an account was deleted (by its owner or an admin). Produced by the social
 * service's Delete handler; the federation planner turns it into a Delete of the actor for every
 * remote server that follows the user (docs/federation.md).
 */
import { z } from 'zod';

export const USER_DELETED = 'user.deleted';

export const userDeletedPayload = z.object({
  /** The deleted account. */
  userId: z.string().min(1).max(300),
  /** Who deleted it (the user, or an admin). */
  actorId: z.string().min(1).max(300),
});
export type UserDeletedPayload = z.infer<typeof userDeletedPayload>;
