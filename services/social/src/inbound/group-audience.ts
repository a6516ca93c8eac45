/**
 * The audience of a post to a group from another server (docs/federation.md, "Groups"):
 *
 * - to a group of the signing server: its members here are named (`recipients`) with its members
 *   circle (`circle`, at a revision) and the group (`group`); both are cached here (groups.ts) and
 *   the post is kept when it names someone here;
 * - to a group of this server, by a remote member (their server sent it here, the group's): kept
 *   as a local group post would be, only when its author is a member of the group; the federation
 *   planner passes it on to the group's other servers.
 */
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import type { KeptAudience } from './audience';
import { isLocalActor, localActors } from './audience';
import { addressedGroup, readGroup } from './group-shape';
import { cacheGroup } from './groups';
import { belongsTo, isObject, objectId, type Json } from './shape';

const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
const rejected = (reason: string): Outcome => ({ status: 'rejected', reason });

const ids = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [])
    .slice(0, 1000)
    .map((x) => objectId(x))
    .filter((x): x is string => !!x && x.length <= 300);

/** Undefined when the post is not addressed to a group. */
export async function groupAudience(
  ctx: SocialContext,
  a: Inbound,
  object: Json,
): Promise<KeptAudience | Outcome | undefined> {
  const groupId = addressedGroup(a.activity, object);
  if (!groupId) return undefined;
  if (belongsTo(groupId, ctx.config.DOMAIN)) {
    const group = await ctx.stores.groups.liveById(groupId);
    if (!group || group.originDomain) return rejected('to: no such group on this server');
    const { groups } = await ctx.stores.circles.membershipsOf(a.actorId);
    if (!groups.includes(groupId)) return rejected('to: only group members can post to a group');
    return { to: groupId };
  }
  // The group's server sends its group's posts, or relays those of members elsewhere.
  const groupServer = a.relayedBy ?? a.signerDomain;
  if (!belongsTo(groupId, groupServer)) return rejected("to: a group must be on the signer's domain");
  const group = readGroup(a.activity.group);
  if (!group || group.id !== groupId) return rejected('group: the group addressed is required');
  const circle = isObject(a.activity.circle) ? a.activity.circle : {};
  const circleId = objectId(circle.id);
  const rev = circle.rev;
  if (!circleId || !belongsTo(circleId, groupServer) || typeof rev !== 'number' || !Number.isSafeInteger(rev))
    return rejected("circle: the group's members circle and its revision are required");
  const named = await localActors(ctx, ids(a.activity.recipients));
  if (!named.length) return ignored('names no recipient on this server');
  const scope = Array.isArray(a.activity.scope)
    ? ids(a.activity.scope).filter((id) => isLocalActor(ctx, id))
    : undefined;
  const cached = await cacheGroup(ctx, groupServer, group, { id: circleId, rev }, named, scope);
  if (!cached) return ignored('the group is deleted here or held from elsewhere');
  return { to: groupId };
}
