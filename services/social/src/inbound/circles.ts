/**
 * Circle membership from another server (Add, Remove, Delete of a circle): the sending server's
 * circle is cached here holding this server's actors it names (cached-membership.ts), so what is
 * addressed to it reads through the normal audience checks. Each Add and Remove states every
 * member of this server at the origin's revision, and a member's state only moves to a newer
 * revision: an older Add arriving after a newer Remove does not re-add. Only the circle's owner,
 * on the signing server, changes it.
 */
import { STAMPS } from '@agora/common/cache';
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import { isLocalActor, localActors } from './audience';
import { readMembership } from './audience-shape';
import { belongsTo } from './shape';

const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
const rejected = (reason: string): Outcome => ({ status: 'rejected', reason });

/** Add or Remove of a member of one of the signer's circles. */
export async function membership(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const { memberId, circle, members } = readMembership(a.activity);
  if (!circle?.id.startsWith('circle:'))
    return ignored(`${a.type} of anything but a circle member is not processed yet`);
  if (!belongsTo(circle.id, a.signerDomain))
    return rejected("target: the circle must be on the signer's domain");
  if ((circle.actorId ?? a.actorId) !== a.actorId)
    return rejected("target.actorId: only the circle's owner changes it");
  if (circle.rev === undefined) return rejected('target.rev: the revision of its members is required');
  if (!memberId || !isLocalActor(ctx, memberId)) return ignored('object: not an actor of this server');
  const synced = await ctx.stores.circles.syncCached(
    { id: circle.id, actorId: a.actorId, name: circle.name, originDomain: a.signerDomain },
    { rev: circle.rev, present: await localActors(ctx, members), scope: 'all' },
  );
  if (!synced) return ignored('the circle is deleted here');
  return { status: 'processed' };
}

/** Delete of one of the signer's circles cached here: its members lose what was addressed to it. */
export async function deleteCircle(ctx: SocialContext, a: Inbound, id: string): Promise<Outcome> {
  if (!belongsTo(id, a.signerDomain)) return rejected("object: the circle must be on the signer's domain");
  const cached = await ctx.stores.circles.liveById(id);
  if (!cached || cached.originDomain !== a.signerDomain || cached.actorId !== a.actorId)
    return ignored('no circle of this owner from this server is held here');
  if (await ctx.stores.circles.softDeleteCircle(id, a.actorId)) await ctx.stamps.bump([STAMPS.circle(id)]);
  return { status: 'processed' };
}
