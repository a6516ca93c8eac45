/**
 * The inbox for ActivityPub activities (the actor is a URL): the signature (draft-cavage or RFC
 * 9421) must be by a key whose owner is the activity's actor, never merely a key of its domain,
 * except for a Create, Update or Delete forwarded by another server, taken on its actor's own
 * Linked Data Signature or read from its origin (inbound-forwarded.ts, ADR 0037);
 * the actor's document is fetched (resolve.ts) for its handle and inboxes; the activity is
 * recorded in the spec's form (inbound-shape.ts) and applied by the social service as any other;
 * a signed public reply is kept as sent too, to be forwarded (forward.ts).
 * A Follow of a local user is answered (follow.ts); an Accept or Reject of a local user's Follow
 * settles it.
 */
import { BadRequest, NotAuthorized, Unauthorized } from '@agora/common/errors';
import { domainOf, signingKeyIds } from '@agora/common/federation';
import type { Request } from 'express';
import type { FederationContext } from '../context';
import { recordInbound, refuseBlocked } from '../inbox/accept';
import { answerFollow, settleFollow } from './follow';
import { keepsOriginal } from './forward';
import { FORWARDED_TYPES, trustForwarded } from './inbound-forwarded';
import { toSpecForm } from './inbound-shape';
import { resolveActor } from './resolve';

type Json = Record<string, unknown>;

/** ActivityPub rather than the spec's wire: no `actorId`, and an actor that is a URL. */
export function isActivityPubActivity(body: Json): boolean {
  if (body.actorId !== undefined) return false;
  const actor = typeof body.actor === 'object' && body.actor !== null ? (body.actor as Json).id : body.actor;
  return typeof actor === 'string' && /^https?:\/\//.test(actor);
}

const text = (v: unknown, field: string): string => {
  if (typeof v !== 'string' || !v.trim() || v.length > 2000) throw new BadRequest(`${field}: is required`);
  return v;
};

export async function acceptActivityPub(
  ctx: FederationContext,
  req: Request,
  activity: Json,
  raw: Buffer,
): Promise<{ duplicate: boolean }> {
  const type = text(activity.type, 'type').slice(0, 64);
  const remoteId = text(activity.id, 'id');
  const actorUrl = text(
    typeof activity.actor === 'object' ? (activity.actor as Json).id : activity.actor,
    'actor',
  );
  await refuseBlocked(ctx, actorUrl);
  // A forwarder's domain (the HTTP signer's, when another server's) is refused before its key is fetched.
  for (const keyId of signingKeyIds(req.headers))
    if (domainOf(keyId) !== domainOf(actorUrl)) await refuseBlocked(ctx, keyId);
  const forwardable = FORWARDED_TYPES.has(type);
  const verified = await ctx.federation.verify({
    method: req.method,
    path: req.originalUrl,
    url: `${ctx.config.publicUrl}${req.originalUrl}`,
    headers: req.headers,
    rawBody: raw,
    // A forwarded activity is signed by another server than its actor's (inbound-forwarded.ts).
    claimedActor: forwardable ? undefined : actorUrl,
  });
  let trust = { signerDomain: verified.signerDomain, via: verified.keyId, remoteId, activity, signed: true };
  // The key must be the actor's own: a key of another actor speaks for no one else, unless it
  // forwards the actor's activity, taken on the actor's signature or from its origin.
  if (verified.owner !== actorUrl) {
    if (!forwardable) throw new Unauthorized("The signing key's owner is not the activity's actor");
    trust = await trustForwarded(ctx, activity, type, actorUrl, verified);
  } else if (domainOf(remoteId) !== verified.signerDomain)
    throw new NotAuthorized("id: an activity's id must be on the signer's domain");
  await ctx.peers.answered(verified.signerDomain, 'inbound');
  const actor = await resolveActor(ctx, actorUrl);
  if (!actor) throw new BadRequest('actor: its document could not be read as an ActivityPub actor');

  if (type === 'Accept' || type === 'Reject') await settleFollow(ctx, activity, actor, type);
  if (type === 'Follow') {
    const answered = await answerFollow(ctx, activity, actor);
    // A refused Follow is answered with Reject and not applied (the social service would record it).
    if (answered === 'rejected') return { duplicate: false };
  }
  const shaped = await toSpecForm(ctx, trust.activity, actor);
  return recordInbound(ctx, {
    // A Like or EmojiReact is the spec's React from here on (inbound-content.ts).
    type: typeof shaped.type === 'string' ? shaped.type : type,
    remoteId: trust.remoteId,
    actorId: actor.handle,
    signerDomain: trust.signerDomain,
    raw: JSON.stringify(shaped),
    via: trust.via,
    // A signed public reply (or its edit or removal) is kept as sent, to be forwarded (forward.ts).
    // Whether it is (a public reply) is read from what is applied; what is kept is the body as received.
    ...(trust.signed && keepsOriginal(trust.activity) ? { original: raw.toString('utf8') } : {}),
  });
}
