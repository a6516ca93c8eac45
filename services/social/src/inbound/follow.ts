/**
 * Inbound Follow and Undo Follow: a remote actor subscribes to a local user's public posts (the
 * delivery planner reads these rows) or stops. The inbox URL comes from the actor object the peer
 * sent (`inbox` or `endpoints.sharedInbox`) and must be on the signer's domain; without one, the
 * signer's shared inbox `https://<domain>/inbox` is used.
 */
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import { belongsTo, isObject, objectId } from './shape';

function inboxOf(a: Inbound): string {
  const actor = isObject(a.activity.actor) ? a.activity.actor : {};
  const endpoints = isObject(actor.endpoints) ? actor.endpoints : {};
  const given = [endpoints.sharedInbox, actor.inbox].find(
    (u): u is string => typeof u === 'string' && /^https?:\/\//.test(u) && belongsTo(u, a.signerDomain),
  );
  return given ?? `https://${a.signerDomain}/inbox`;
}

async function localUser(ctx: SocialContext, id: string | undefined) {
  if (!id?.endsWith(`@${ctx.config.DOMAIN}`)) return undefined;
  return (await ctx.stores.users.findActiveById(id)) ?? undefined;
}

export async function follow(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const user = await localUser(ctx, objectId(a.activity.object));
  if (!user) return { status: 'ignored', reason: 'object: not a local user' };
  await ctx.stores.followers.add(user.id, a.actorId, { domain: a.signerDomain, inbox: inboxOf(a) });
  return { status: 'processed' };
}

export async function undo(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const inner = a.activity.object;
  if (!isObject(inner) || inner.type !== 'Follow')
    return { status: 'ignored', reason: 'only Undo of a Follow (given as an object) is processed' };
  const user = await localUser(ctx, objectId(inner.object));
  if (!user) return { status: 'ignored', reason: 'object.object: not a local user' };
  await ctx.stores.followers.remove(user.id, a.actorId);
  return { status: 'processed' };
}
