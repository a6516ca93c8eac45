/** Registration through POST /outbox: the same function and checks as POST /register. */
import type { SocialContext } from '../context';
import type { ActivityInput } from '../activities/types';
import { parseRegistration, registerUser } from './register';

export async function registerViaOutbox(
  ctx: SocialContext,
  activity: ActivityInput,
): Promise<Record<string, unknown>> {
  const result = await registerUser(ctx, parseRegistration(activity.object));
  const userId = result.record.id;
  const logged = result.activity;
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
