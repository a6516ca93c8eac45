/**
 * What another server says of its own accounts: a profile changed (Update of the actor: the name
 * and icon copied onto what it wrote and into the circles holding it are refreshed), an account
 * suspended or restored by its server (an Update whose object says `suspended: true`, or no
 * longer does: ADR 0028; its copies here are hidden from everyone meanwhile, as a suspended
 * local account's content is, and shown again, unchanged, on the restore's Update), or an
 * account is gone (after apply.ts withdrew its content, the account leaves every circle here,
 * and so every group and timeline, and its follows of local users end).
 */
import { STAMPS } from '@agora/common/cache';
import { isHttpUrl } from '@agora/common/validation';
import type { SocialContext } from '../context';
import { refreshCopiesOf } from '../consumers/user-copies';
import type { Inbound, Outcome } from './apply';
import { belongsTo, objectId, type Json } from './shape';

const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);

/** An Update whose object is the sending actor itself (a profile change). */
export function isActorUpdate(a: Inbound, object: Json): boolean {
  return (
    objectId(object) === a.actorId &&
    (object.type === undefined || (typeof object.type === 'string' && ACTOR_TYPES.has(object.type)))
  );
}

export async function updateActor(ctx: SocialContext, a: Inbound, object: Json): Promise<Outcome> {
  if (!belongsTo(a.actorId, a.signerDomain))
    return { status: 'rejected', reason: 'the actor is not on the signing server' };
  const suspension = await noteSuspension(ctx, a.actorId, object.suspended === true);
  const name = [object.name, object.preferredUsername].find(
    (n): n is string => typeof n === 'string' && !!n.trim(),
  );
  const iconRef =
    objectId(object.icon) ??
    (typeof object.icon === 'object' && object.icon !== null
      ? (object.icon as { url?: unknown }).url
      : undefined);
  const icon = isHttpUrl(iconRef) ? iconRef : undefined;
  if (!name && !icon)
    return suspension
      ? { status: 'processed' }
      : { status: 'ignored', reason: 'object: neither a name nor an icon to copy' };
  await refreshCopiesOf(ctx, a.actorId, name?.trim().slice(0, 200), icon);
  return { status: 'processed' };
}

/**
 * Every Update of an actor says whether its server suspended it: recorded (or lifted) here, and
 * the set of suspended accounts every read path asks goes stale. True when it changed. Only an
 * actor this server holds something of is recorded: there is nothing else to hide, and a peer
 * cannot grow the set (read by every process) with actors no one here knows.
 */
async function noteSuspension(ctx: SocialContext, actorId: string, suspended: boolean): Promise<boolean> {
  const store = ctx.stores.remoteSuspensions;
  if (suspended && !(await holdsSomethingOf(ctx, actorId))) return false;
  const changed = suspended ? await store.suspend(actorId) : await store.lift(actorId);
  if (changed) await ctx.stamps.bump([STAMPS.suspended]);
  return changed;
}

/** Whether a circle here holds the actor, or it wrote a post, reply or reaction here. */
async function holdsSomethingOf(ctx: SocialContext, actorId: string): Promise<boolean> {
  const r = ctx.stores;
  if ((await r.circles.membershipsOf(actorId)).circles.length) return true;
  const held = await Promise.all([
    r.posts.anyLiveBy(actorId),
    r.replies.anyLiveBy(actorId),
    r.reacts.anyBy(actorId),
  ]);
  return held.some(Boolean);
}

/** A remote account is gone: it leaves every circle (so group) here, and its follows end. */
export async function dropAccount(ctx: SocialContext, actorId: string): Promise<void> {
  const { circles } = await ctx.stores.circles.membershipsOf(actorId);
  for (const id of circles) {
    const circle = await ctx.stores.circles.byId(id);
    const removed = await ctx.stores.circles.removeMember(id, actorId);
    // A group's members circle (`grants`): the group counts one member less.
    if (removed && circle?.grants) await ctx.stores.groups.bumpMembers(circle.grants, -1);
  }
  await ctx.stores.followers.removeActor(actorId);
  await ctx.stamps.bump([STAMPS.viewer(actorId), ...circles.map(STAMPS.circle)]);
  // Gone for good: no longer a suspension a restore could lift.
  await noteSuspension(ctx, actorId, false);
}
