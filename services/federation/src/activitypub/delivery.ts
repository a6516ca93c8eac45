/**
 * Deliveries on the ActivityPub wire: an activity made in ActivityPub form (an Accept, a Follow
 * of a URL-identified actor) goes as it is; an activity of the spec's wire to a peer that speaks
 * ActivityPub (wire.ts) is turned into ActivityPub (outbound.ts). Either is signed by its actor
 * (sign.ts): draft-cavage first; a peer that answers 401 with `Accept-Signature` (RFC 9421 §5.1)
 * gets RFC 9421 at once and from then on.
 */
import type { FederationContext } from '../context';
import { post, type Answer } from '../delivery/post';
import type { DeliveryJob } from '../delivery/job';
import { localIdOf } from './ids';
import { toActivityPub } from './outbound';
import { signAsActor } from './sign';
import { speaksActivityPub } from './wire';

export interface ApDelivery {
  body: string;
  actorUrl: string;
}

/** An activity already in ActivityPub form: its actor is a URL of this server and no `actorId`. */
export function isActivityPubForm(activity: Record<string, unknown>): boolean {
  return (
    activity.actorId === undefined &&
    typeof activity.actor === 'string' &&
    /^https?:\/\//.test(activity.actor)
  );
}

/**
 * How a job goes: undefined for the spec's wire, the ActivityPub body and its actor, or why it
 * cannot go to an ActivityPub peer at all (it is then not sent: settle.ts records it dead).
 */
export async function activityPubDelivery(
  ctx: FederationContext,
  job: DeliveryJob,
): Promise<ApDelivery | { unsendable: string } | undefined> {
  const activity = job.activity as Record<string, unknown>;
  // Another server's activity forwarded (forward.ts): its body as it came, signed by the forwarder.
  if (job.forwardedBy) return { body: JSON.stringify(activity), actorUrl: job.forwardedBy };
  if (isActivityPubForm(activity) && localIdOf(ctx.config, activity.actor as string))
    return { body: JSON.stringify(activity), actorUrl: activity.actor as string };
  if (!(await speaksActivityPub(ctx, job.domain))) return undefined;
  const mapped = await toActivityPub(ctx, activity);
  if ('unsendable' in mapped) return mapped;
  return { body: JSON.stringify(mapped.activity), actorUrl: mapped.activity.actor as string };
}

export async function sendAsActor(ctx: FederationContext, job: DeliveryJob, ap: ApDelivery): Promise<Answer> {
  const store = ctx.stores.activityPub;
  const scheme = await store.signatureScheme(job.domain);
  const req = { method: 'POST', url: job.inbox, body: ap.body };
  const answer = await post(ctx, job.inbox, ap.body, await signAsActor(ctx, ap.actorUrl, req, scheme));
  if (answer.status !== 401 || scheme !== 'draft-cavage' || answer.headers['accept-signature'] === undefined)
    return answer;
  await store.setSignatureScheme(job.domain, 'rfc9421');
  ctx.logger.info({ domain: job.domain }, 'peer asked for RFC 9421 signatures: using them from now on');
  return post(ctx, job.inbox, ap.body, await signAsActor(ctx, ap.actorUrl, req, 'rfc9421'));
}
