/**
 * POST /inbox (decisions.md §6): verify the HTTP signature over the raw body, record the activity
 * (with the event that hands it to processing) before answering 202, publish the event after.
 * The activity's id and actor must be on the signer's domain, so a peer speaks only for itself.
 * An activity id seen before is accepted again without being recorded or processed twice.
 */
import { mintId } from '@agora/common/db';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import { domainOf } from '@agora/common/federation';
import { rawBodyOf } from '@agora/common/http';
import { domainEvent, publishEvents } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import type { Request } from 'express';
import { acceptActivityPub, isActivityPubActivity } from '../activitypub/inbound';

const SERVER_TYPES = new Set(['Application', 'Service']);

function text(v: unknown, field: string, max: number): string {
  if (typeof v !== 'string' || !v.trim() || v.length > max) throw new BadRequest(`${field}: is required`);
  return v;
}

function actorOf(body: Record<string, unknown>): unknown {
  const actor = body.actor;
  return (
    body.actorId ?? (typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : actor)
  );
}

/**
 * A blocked domain's requests are refused before anything is fetched from it (its key) or stored;
 * the refusal is counted on its row. The domain is the claimed actor's: the signature check that
 * would follow binds the signer to it.
 */
export async function refuseBlocked(ctx: FederationContext, actorId: string): Promise<void> {
  const domain = domainOf(actorId);
  if (!domain || !(await ctx.peers.blocks.isBlocked(domain))) return;
  await ctx.stores.remoteServers.countRefusedInbound(domain);
  ctx.logger.info({ domain }, 'inbox request from a blocked domain refused');
  throw new NotAuthorized('This server does not accept activities from your domain');
}

export async function acceptInbound(ctx: FederationContext, req: Request): Promise<{ duplicate: boolean }> {
  const body: unknown = req.body;
  const raw = rawBodyOf(req);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !raw)
    throw new BadRequest('body: a JSON activity is required');
  const activity = body as Record<string, unknown>;
  if (isActivityPubActivity(activity)) return acceptActivityPub(ctx, req, activity, raw);
  const type = text(activity.type, 'type', 64);
  const remoteId = text(activity.id, 'id', 2000);
  const actorId = text(actorOf(activity), 'actor', 2000);
  await refuseBlocked(ctx, actorId);
  const verified = await ctx.federation.verify({
    method: req.method,
    path: req.originalUrl,
    headers: req.headers,
    rawBody: raw,
    claimedActor: actorId,
  });
  // The spec's wire is signed by servers: a key of one of a peer's users speaks for no one else.
  if (verified.ownerType !== undefined && !SERVER_TYPES.has(verified.ownerType))
    throw new NotAuthorized("The spec's protocol must be signed with the server's key");
  const { keyId, signerDomain } = verified;
  if (domainOf(remoteId) !== signerDomain)
    throw new NotAuthorized("id: an activity's id must be on the signer's domain");
  // A verified request from the server: it is up (held deliveries to it may go now).
  await ctx.peers.answered(signerDomain, 'inbound');

  return recordInbound(ctx, { type, remoteId, actorId, signerDomain, raw: raw.toString('utf8'), via: keyId });
}

export interface Inbound {
  type: string;
  remoteId: string;
  actorId: string;
  /** The domain the activity is known to come from (its signer, or the server it was pulled from). */
  signerDomain: string;
  /** The activity as received. */
  raw: string;
  /** The keyId that signed it, or how it was obtained (`pull`). */
  via: string;
  /** An ActivityPub activity's body as received, when it is kept to be forwarded (activitypub/forward.ts). */
  original?: string;
}

/**
 * Records an accepted inbound activity with its `inbox.accepted` event, then publishes the event;
 * an activity id seen before is not recorded again. Shared by the inbox and the poll worker.
 */
export async function recordInbound(ctx: FederationContext, a: Inbound): Promise<{ duplicate: boolean }> {
  const activityId = mintId('activity', ctx.config.DOMAIN);
  const events = [
    domainEvent('inbox.accepted', {
      activityId,
      remoteId: a.remoteId,
      type: a.type,
      signerDomain: a.signerDomain,
    }),
  ];
  const recorded = await ctx.stores.activities.record(
    {
      id: activityId,
      type: a.type,
      actorId: a.actorId,
      remoteId: a.remoteId,
      server: `@${a.signerDomain}`,
      // Kept as received: remote JSON may hold keys a database refuses (`$…`, dots).
      raw: a.raw,
      original: a.original,
      inbound: { status: 'accepted', keyId: a.via, receivedAt: new Date() },
    },
    events,
  );
  // The unique `remoteId` refused it: an activity id seen before is not processed twice.
  if (!recorded) return { duplicate: true };
  await publishEvents(ctx, activityId, events);
  return { duplicate: false };
}
