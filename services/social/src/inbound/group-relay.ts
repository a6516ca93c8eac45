/**
 * Group posts of members on other servers (docs/federation.md, "Groups", relays).
 *
 * On the group's server: a remote member's post to a group of this server, once applied (Create,
 * Update, Delete), is passed on to the group's other member servers (`group.post_received`,
 * planned by the federation service as `Announce` by the group of the post's activity).
 *
 * On a member server: such an `Announce` is applied as the post's activity from its author's
 * server, with the group's server vouching only for posts to its own group: the group must be on
 * the relaying server, and an Update or Delete touches only a post held here addressed to it.
 */
import { domainEvent } from '@agora/common/messaging';
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import { isLocalActor } from './audience';
import { addressedGroup } from './group-shape';
import { belongsTo, isObject, objectId } from './shape';

const RELAYED = new Set(['Create', 'Update', 'Delete']);
const CHANGE = { Create: 'create', Update: 'update', Delete: 'delete' } as const;

/** The relayed activity of an Announce by a group's server, or undefined when it is not one. */
export function groupRelayOf(a: Inbound): (Inbound & { relayedBy: string }) | undefined {
  if (a.type !== 'Announce') return undefined;
  const inner = a.activity.object;
  if (!isObject(inner) || typeof inner.type !== 'string' || !RELAYED.has(inner.type)) return undefined;
  const object = isObject(inner.object) ? inner.object : {};
  const groupId = addressedGroup(inner, object);
  if (!groupId || !belongsTo(groupId, a.signerDomain) || a.actorId !== groupId) return undefined;
  const actorId = objectId(inner.actorId) ?? objectId(inner.actor);
  const domain = actorId ? domainOf(actorId) : undefined;
  if (!actorId || !domain) return undefined;
  return { type: inner.type, actorId, signerDomain: domain, activity: inner, relayedBy: a.signerDomain };
}

/** Applies a relayed group post activity with `apply` (apply.ts's Create, Update or Delete). */
export async function applyGroupRelay(
  ctx: SocialContext,
  relay: Inbound & { relayedBy: string },
  apply: (ctx: SocialContext, a: Inbound) => Promise<Outcome>,
): Promise<Outcome> {
  if (isLocalActor(ctx, relay.actorId) || relay.signerDomain === ctx.config.DOMAIN)
    return { status: 'ignored', reason: "a relay of this server's own post" };
  if (relay.type !== 'Create') {
    const id = objectId(relay.activity.object);
    const held = id ? await ctx.stores.posts.byId(id) : null;
    const groupId = addressedGroup(
      relay.activity,
      isObject(relay.activity.object) ? relay.activity.object : {},
    );
    if (held && held.to !== groupId)
      return { status: 'rejected', reason: "a group's server relays only posts to its group" };
  }
  return apply(ctx, relay);
}

/**
 * On the group's server: the event that passes a remote member's group post on to the group's
 * other servers, once its Create, Update or Delete was applied here.
 */
export async function relayEvents(ctx: SocialContext, a: Inbound, outcome: Outcome): Promise<Outcome> {
  if (outcome.status !== 'processed' || !RELAYED.has(a.type) || 'relayedBy' in a) return outcome;
  const id = objectId(a.activity.object);
  const post = id ? await ctx.stores.posts.byId(id) : null;
  const groupId = post?.group;
  if (!post || !groupId || !belongsTo(groupId, ctx.config.DOMAIN) || post.originDomain !== a.signerDomain)
    return outcome;
  const change = CHANGE[a.type as keyof typeof CHANGE];
  return {
    ...outcome,
    events: [
      ...(outcome.events ?? []),
      domainEvent('group.post_received', { groupId, postId: post.id, change, originDomain: a.signerDomain }),
    ],
  };
}
