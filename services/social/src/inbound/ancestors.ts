/**
 * The thread above a remote reply, when its parent was not held here (docs/federation.md,
 * "ActivityPub"; ADR 0027): the federation service fetched it from the reply's server and sends
 * it with the reply (`ancestors`: the Creates that server would have sent, root first), or why it
 * could not (`ancestorsMissing`). Each is applied before the reply as if the reply's server had
 * sent it: its author must be of that server, and every rule of a post or reply from there holds
 * (ids on its domain, the author its own, the thread's trust and audience). When one is not kept,
 * the reply stays out as before and its recorded reason says why.
 */
import type { DomainEvent } from '@agora/common/messaging';
import type { Inbound, Outcome } from './apply';
import type { SocialContext } from '../context';
import { findObject } from '../access/objects';
import { belongsTo, isObject, objectId, type Json } from './shape';
import { isReplyObject } from './thread-shape';

/** More than the federation service ever sends (3): a bound on what a peer could put there. */
const MAX_ANCESTORS = 5;

type Apply = (ctx: SocialContext, a: Inbound) => Promise<Outcome>;

/** The reply, with `ancestorsMissing` set when a fetched ancestor was not kept. */
export interface Applied {
  inbound: Inbound;
  events: DomainEvent[];
}

/** Whether the activity is a reply carrying the thread above it. */
function carriesAncestors(a: Inbound): boolean {
  return a.type === 'Create' && isReplyObject(a.activity.object) && Array.isArray(a.activity.ancestors);
}

/** Applies the ancestors a reply carries, root first, with `apply` (the inbox's own dispatch). */
export async function applyAncestors(ctx: SocialContext, a: Inbound, apply: Apply): Promise<Applied> {
  if (!carriesAncestors(a)) return { inbound: a, events: [] };
  const events: DomainEvent[] = [];
  const list = (a.activity.ancestors as unknown[]).slice(0, MAX_ANCESTORS);
  for (const item of list) {
    const why = await applyOne(ctx, a, item, apply, events);
    if (why) return { inbound: { ...a, activity: { ...a.activity, ancestorsMissing: why } }, events };
  }
  return { inbound: a, events };
}

/** One ancestor applied; a reason when it was not kept (already held counts as kept). */
async function applyOne(
  ctx: SocialContext,
  a: Inbound,
  item: unknown,
  apply: Apply,
  events: DomainEvent[],
): Promise<string | undefined> {
  const activity: Json = isObject(item) ? item : {};
  const actorId = objectId(activity.actorId);
  const id = objectId(activity.object) ?? 'an ancestor';
  if (activity.type !== 'Create' || !belongsTo(actorId, a.signerDomain))
    return `${id}: an ancestor must be a Create by an actor of the reply's server`;
  // Its own ancestors are never read: only the reply's list, root first.
  const own: Json = { ...activity };
  delete own.ancestors;
  delete own.ancestorsMissing;
  const outcome = await apply(ctx, { type: 'Create', actorId, signerDomain: a.signerDomain, activity: own });
  events.push(...(outcome.events ?? []));
  // Kept by this call, or held already (a copy that arrived meanwhile).
  if (outcome.status === 'processed' || (await findObject(ctx, id))) return undefined;
  return `the parent ${id}, fetched from its server, was not kept: ${outcome.reason ?? outcome.status}`;
}
