/** One signed POST of an activity to an inbox, its answer or the failure that stood for one. */
import { SafeFetchError, type DeliveryAttemptResult } from '@agora/common/federation';
import type { FederationContext } from '../context';

export type Answer = {
  status: DeliveryAttemptResult;
  headers: Record<string, string | string[] | undefined>;
};

export async function post(
  ctx: FederationContext,
  inbox: string,
  body: string,
  signed: Record<string, string>,
): Promise<Answer> {
  try {
    const res = await ctx.federation.deliver(inbox, {
      method: 'POST',
      headers: { ...signed, 'content-type': 'application/activity+json', accept: 'application/json' },
      body,
    });
    return { status: res.status, headers: res.headers };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    // A redirect (none are followed for a POST), a bad URL or a refused address cannot get better.
    const status =
      err.reason === 'timeout'
        ? 'timeout'
        : err.reason === 'network' || err.reason === 'unresolvable' || err.reason === 'too_large'
          ? 'network'
          : 'forbidden_address';
    return { status, headers: {} };
  }
}
