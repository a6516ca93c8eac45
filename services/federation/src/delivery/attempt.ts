/**
 * One send of one delivery job (decisions.md §6): signed afresh with the server key (its own
 * `Date` and nonce, so a resend is never refused as a replay), posted through the safe client
 * without following redirects, 10 s at most, and the answer sorted (classifyDelivery).
 */
import {
  SafeFetchError,
  classifyDelivery,
  signAsServer,
  type DeliveryAttemptResult,
  type DeliveryOutcome,
} from '@agora/common/federation';
import type { FederationContext } from '../context';
import type { DeliveryJob } from './job';

export async function attemptDelivery(
  ctx: FederationContext,
  job: DeliveryJob,
): Promise<{ status: DeliveryAttemptResult; verdict: DeliveryOutcome }> {
  const body = JSON.stringify(job.activity);
  const signed = await signAsServer(ctx, { method: 'POST', url: job.inbox, body });
  let status: DeliveryAttemptResult;
  let headers: Record<string, string | string[] | undefined> = {};
  try {
    const res = await ctx.federation.deliver(job.inbox, {
      method: 'POST',
      headers: { ...signed, 'content-type': 'application/activity+json', accept: 'application/json' },
      body,
    });
    status = res.status;
    headers = res.headers;
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    // A redirect (none are followed for a POST), a bad URL or a refused address cannot get better.
    status =
      err.reason === 'timeout'
        ? 'timeout'
        : err.reason === 'network' || err.reason === 'unresolvable' || err.reason === 'too_large'
          ? 'network'
          : 'forbidden_address';
  }
  return { status, verdict: classifyDelivery(status, headers) };
}
