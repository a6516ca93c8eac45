/**
 * One send of one delivery job (decisions.md §6): signed afresh (its own `Date` and nonce, so a
 * resend is never refused as a replay), posted through the safe client without following
 * redirects, 10 s at most, and the answer sorted (classifyDelivery). The spec's wire is signed
 * with the server key; an ActivityPub delivery (activitypub/delivery.ts) with its actor's key,
 * in the signature format the peer asked for.
 */
import {
  classifyDelivery,
  signAsServer,
  type DeliveryAttemptResult,
  type DeliveryOutcome,
} from '@agora/common/federation';
import type { FederationContext } from '../context';
import { activityPubDelivery, sendAsActor } from '../activitypub/delivery';
import type { DeliveryJob } from './job';
import { post, type Answer } from './post';

export async function attemptDelivery(
  ctx: FederationContext,
  job: DeliveryJob,
): Promise<{ status: DeliveryAttemptResult; verdict: DeliveryOutcome }> {
  const ap = await activityPubDelivery(ctx, job);
  if (ap && 'unsendable' in ap) {
    ctx.logger.info(
      { inbox: job.inbox, activity: job.activity.id, reason: ap.unsendable },
      'not sent as ActivityPub',
    );
    return {
      status: 'unsendable',
      verdict: { outcome: 'permanent', reason: `unsendable: ${ap.unsendable}` },
    };
  }
  let answer: Answer;
  if (ap) answer = await sendAsActor(ctx, job, ap);
  else {
    const body = JSON.stringify(job.activity);
    answer = await post(
      ctx,
      job.inbox,
      body,
      await signAsServer(ctx, { method: 'POST', url: job.inbox, body }),
    );
  }
  return { status: answer.status, verdict: classifyDelivery(answer.status, answer.headers) };
}
