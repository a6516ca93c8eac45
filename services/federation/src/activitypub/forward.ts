/**
 * Inbox forwarding (ActivityPub §7.1.2), as Mastodon does it for replies: a public reply that
 * another server's user sent here, into a thread rooted here, goes on to the ActivityPub servers
 * that follow the thread's author, as the very activity its author's server sent (its body
 * unchanged), signed over HTTP by the thread's author. Those servers cannot trust the HTTP
 * signature for an actor of another server, so only an activity that carries its author's own
 * signature is forwarded: a Linked Data Signature (`signature`, which Mastodon and Fedify make and
 * check) or an Object Integrity Proof (`proof`). Its body is kept with the inbound record
 * (`original`) at the inbox; the thread planner (delivery/threads.ts) forwards it once the social
 * service has applied it (a refused reply goes nowhere).
 */
import type { FederationContext } from '../context';
import { idMap, remoteObjectIdFor } from './ids';
import { isPublicPost } from './inbound-content';
import { type Json, idOf, isObject } from './json';

/** Whether an inbound ActivityPub activity's body is kept to be forwarded (see above). */
export function keepsOriginal(activity: Json): boolean {
  if (activity.signature === undefined && activity.proof === undefined) return false;
  const object = activity.object;
  if (activity.type === 'Delete') return idOf(object) !== idOf(activity.actor);
  if (activity.type !== 'Create' && activity.type !== 'Update') return false;
  return isObject(object) && object.inReplyTo != null && isPublicPost(activity, object);
}

/** The inbound activity an event of its application was published by (`<activity>#applied#<n>`). */
function inboundIdOf(eventId: string): string | undefined {
  return /^(activity:[^#\s]+)#applied#\d+$/.exec(eventId)?.[1];
}

/**
 * The activity to forward for an event about a remote reply (`replyId`): the signed body its
 * author's server sent, when that activity is what produced the event and is about this reply
 * (a reply's fetched ancestors are applied with it, and are not it); undefined otherwise.
 */
export async function forwardedOriginal(
  ctx: FederationContext,
  eventId: string,
  replyId: string,
): Promise<Json | undefined> {
  const inboundId = inboundIdOf(eventId);
  const record = inboundId ? await ctx.stores.activities.byId(inboundId) : null;
  if (!record?.original) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(record.original);
  } catch {
    return undefined;
  }
  if (!isObject(body) || typeof body.id !== 'string') return undefined;
  const objectUrl = idOf(body.object);
  if (!objectUrl) return undefined;
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const about = (await ids.idOf(objectUrl)) ?? remoteObjectIdFor(objectUrl, 'reply');
  return about === replyId ? body : undefined;
}
