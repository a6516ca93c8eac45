/** Helpers shared by the /users route files. */
import type { UserRecord } from '@agora/common/db';
import { NotFound } from '@agora/common/errors';
import type { SocialContext } from '../../context';

/** The user a /users/:id/… route is about: live (active, not deleted), else 404. */
export async function liveUser(ctx: SocialContext, id: string): Promise<UserRecord> {
  const user = await ctx.stores.users.findActiveById(id);
  if (!user) throw new NotFound('User not found');
  return user;
}
