/** Registration through POST /outbox: the same function and checks as POST /register. */
import { mintId } from '@agora/common/db';
import type { SocialContext } from '../context';
import type { ActivityInput } from '../activities/types';
import { parseRegistration, registerUser } from './register';

export async function registerViaOutbox(
  ctx: SocialContext,
  activity: ActivityInput,
): Promise<Record<string, unknown>> {
  const result = await registerUser(ctx, parseRegistration(activity.object));
  const userId = result.record.id;
  // The activity log gets the fact, never the password.
  const logged = (await ctx.stores.activities.record(
    {
      id: mintId('activity', ctx.config.DOMAIN),
      type: 'Create',
      objectType: 'User',
      actorId: userId,
      objectId: userId,
      to: '@public',
      server: `@${ctx.config.DOMAIN}`,
    },
    [],
  ))!;
  const activityOut = {
    id: logged.id,
    type: 'Create',
    objectType: 'User',
    actorId: userId,
    objectId: userId,
    to: '@public',
    createdAt: logged.createdAt,
  };
  if (result.kind === 'verification') {
    return {
      ok: true,
      activity: activityOut,
      createdId: userId,
      requiresVerification: true,
      message: 'Account created. Please check your email to verify your address.',
    };
  }
  return {
    ok: true,
    activity: activityOut,
    result: result.user,
    user: result.user,
    createdId: userId,
    token: result.token,
  };
}
