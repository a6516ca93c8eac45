/**
 * Group membership across servers (docs/federation.md, "Groups").
 *
 * On the group's server: a remote user's Join is decided as a local one (the group must be
 * visible to them as a remote viewer, public or to a circle holding them, unless they asked
 * already; blocked users and invite-only groups refuse; open joins; every other policy,
 * `serverOpen` included since they are not of this server, waits for an admin's approval, with
 * the `join_request` notification to its admins); a Leave takes them out as a local one. What
 * changes goes back by the federation planner: Add or Remove of the members circle, Accept or
 * Reject of the Join.
 *
 * On the member's server: Add and Remove of a group's members circle (with the group) cache the
 * group and its members circle here (`originDomain` set; the circle grants the group, so its
 * members here read what is addressed to it through the normal audience checks); an Accept of a
 * user's Join tells them (`join_approved`), a Reject is recorded. Only the group, on its server,
 * speaks for it.
 */
import { canSee } from '@agora/common/audience';
import { parseId } from '@agora/common/db';
import { domainEvent, type DomainEvent } from '@agora/common/messaging';
import { Conflict } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { resolveMember } from '../activities/members';
import { circleMemberIds, groupRoles, type GroupRecord } from '../access/groups';
import {
  addToGroupsCircle,
  assertKeepsAnAdmin,
  circleOf,
  disenrol,
  dropFromGroupsCircle,
  enrol,
} from '../activities/handlers/groups/shared';
import type { Inbound, Outcome } from './apply';
import { isLocalActor, localActors } from './audience';
import { readMembership } from './audience-shape';
import { remoteActorViewer } from './thread';
import { isGroupId, readAnswer, readGroup, type GroupRef } from './group-shape';
import { belongsTo, isObject, objectId } from './shape';

const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
const rejected = (reason: string, events?: DomainEvent[]): Outcome => ({
  status: 'rejected',
  reason,
  ...(events ? { events } : {}),
});

/** A live group of this server (not another server's cached here). */
async function ownGroup(ctx: SocialContext, id: string | undefined): Promise<GroupRecord | null> {
  if (!isGroupId(id) || !belongsTo(id, ctx.config.DOMAIN)) return null;
  const group = await ctx.stores.groups.liveById(id);
  return group && !group.originDomain ? group : null;
}

/** What a remote user's Join does under each policy: they are never of this server. */
function remotePolicy(group: GroupRecord): 'join' | 'approve' | 'refuse' {
  if (group.rsvpPolicy === 'open') return 'join';
  return group.rsvpPolicy === 'inviteOnly' ? 'refuse' : 'approve';
}

const memberEvent = (name: 'member.added' | 'member.removed', group: GroupRecord, memberId: string) =>
  domainEvent(name, {
    circleId: circleOf(group, 'members'),
    ownerId: group.id,
    groupId: group.id,
    memberId,
    actorId: memberId,
  });

/** Join of a group of this server by a user of the signing server. */
export async function joinInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const group = await ownGroup(ctx, objectId(a.activity.object));
  if (!group) return rejected('object: no such group on this server');
  const memberId = a.actorId;
  // People join groups; a server or another group does not.
  if (parseId(memberId).type !== 'User') return rejected('actor: only users join groups');
  const refused = (reason: string) =>
    rejected(reason, [
      domainEvent('group.join_rejected', { groupId: group.id, memberId, actorId: group.id }),
    ]);
  const roles = await groupRoles(ctx, group, memberId);
  // As a remote viewer here (remote-viewer tier): public, or a circle holding them or their server.
  const viewer = await remoteActorViewer(ctx, memberId);
  if (!canSee(group, viewer, ctx.config.DOMAIN) && !roles.members && !roles.pending)
    return refused('the group is not visible to this user');
  if (roles.blocked) return refused('the user is blocked from this group');
  if (roles.members) return ignored('already a member');
  const policy = remotePolicy(group);
  if (policy === 'refuse') return refused('the group is invite-only');
  const member = await resolveMember(ctx, memberId);
  const actor = a.activity.actor;
  if (isObject(actor) && typeof actor.name === 'string' && actor.name) member.name = actor.name.slice(0, 200);
  if (policy === 'approve') {
    if (roles.pending) return ignored('the request is pending already');
    const added = await ctx.stores.circles.addMember(circleOf(group, 'pending'), member);
    const adminIds = await circleMemberIds(ctx, group, 'admins');
    return {
      status: 'processed',
      events: added
        ? [domainEvent('group.join_requested', { groupId: group.id, actorId: memberId, adminIds })]
        : [],
    };
  }
  const added = await enrol(ctx, group, member);
  return { status: 'processed', events: added ? [memberEvent('member.added', group, memberId)] : [] };
}

/** Leave of a group of this server by a user of the signing server. */
export async function leaveInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const group = await ownGroup(ctx, objectId(a.activity.object));
  if (!group) return rejected('object: no such group on this server');
  const roles = await groupRoles(ctx, group, a.actorId);
  if (!roles.members && !roles.pending) return ignored('not a member of the group');
  try {
    await assertKeepsAnAdmin(ctx, group, a.actorId);
  } catch (err) {
    if (err instanceof Conflict) return rejected(err.message);
    throw err;
  }
  const removed = await disenrol(ctx, group, a.actorId);
  return {
    status: 'processed',
    events: removed.members ? [memberEvent('member.removed', group, a.actorId)] : [],
  };
}

/** The signer's group, described by the activity, as this server caches it. */
function signersGroup(a: Inbound, given: unknown): GroupRef | Outcome {
  const group = readGroup(given);
  if (!group) return rejected('group: the group is required');
  if (!belongsTo(group.id, a.signerDomain)) return rejected("group.id: must be on the signer's domain");
  if (a.actorId !== group.id) return rejected('actor: only the group speaks for itself');
  return group;
}

/**
 * Caches the signer's group and its members circle holding `present` of this server's actors as
 * of `rev` (every one of them, or those of `scope`); the local users who joined or left it.
 */
export async function cacheGroup(
  ctx: SocialContext,
  originDomain: string,
  group: GroupRef,
  circle: { id: string; rev: number },
  present: string[],
  scope?: string[],
): Promise<{ added: string[]; removed: string[]; group: GroupRecord } | null> {
  const cached = await ctx.stores.groups.cacheRemote({
    ...group,
    // Its audience means this here only when public; otherwise its members here read it.
    to: group.to === '@public' ? '@public' : group.id,
    originDomain,
    membersCircle: circle.id,
  });
  if (!cached) return null;
  const synced = await ctx.stores.circles.syncCached(
    { id: circle.id, actorId: group.id, name: '', originDomain, grants: group.id },
    { rev: circle.rev, present: await localActors(ctx, present), scope: scope ?? 'all' },
  );
  if (!synced) return null;
  // Their Groups circle follows, as for a local group.
  const users = (ids: string[]) => ids.filter((id) => id !== `@${ctx.config.DOMAIN}`);
  for (const id of users(synced.added)) await addToGroupsCircle(ctx, id, cached);
  for (const id of users(synced.removed)) await dropFromGroupsCircle(ctx, id, group.id);
  return { added: synced.added, removed: synced.removed, group: cached };
}

/** Add or Remove of a member of the signer's group (its members circle, with the group). */
export async function groupMembership(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const target = isObject(a.activity.target) ? a.activity.target : {};
  const group = signersGroup(a, target.group);
  if ('status' in group) return group;
  const { memberId, circle, members } = readMembership(a.activity);
  if (!circle || !belongsTo(circle.id, a.signerDomain) || (circle.actorId ?? group.id) !== group.id)
    return rejected("target: the group's members circle, on the signer's domain, is required");
  if (circle.rev === undefined) return rejected('target.rev: the revision of its members is required');
  if (!memberId || !isLocalActor(ctx, memberId)) return ignored('object: not an actor of this server');
  const done = await cacheGroup(ctx, a.signerDomain, group, { id: circle.id, rev: circle.rev }, members);
  return done ? { status: 'processed' } : ignored('the group is deleted here or held from elsewhere');
}

/** Accept or Reject by the signer's group of a Join by a user of this server. */
export async function answerInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const { memberId, groupId } = readAnswer(a.activity);
  if (!memberId || !groupId) return ignored(`${a.type} of anything but a group Join is not processed`);
  const group = signersGroup(a, a.activity.group);
  if ('status' in group) return group;
  if (group.id !== groupId) return rejected('object.object: must be the group');
  if (!isLocalActor(ctx, memberId) || memberId.lastIndexOf('@') === 0)
    return ignored('object.actor: not a user of this server');
  if (a.type === 'Reject') return { status: 'processed' };
  const cached = await ctx.stores.groups.cacheRemote({
    ...group,
    to: group.to === '@public' ? '@public' : group.id,
    originDomain: a.signerDomain,
  });
  if (!cached) return ignored('the group is deleted here or held from elsewhere');
  return {
    status: 'processed',
    events: [domainEvent('group.join_approved', { groupId, memberId, actorId: group.id })],
  };
}

/** The signer's group, cached here, as its origin changed it (Update) or deleted it (Delete). */
export async function groupChange(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const id = objectId(a.activity.object);
  if (!isGroupId(id) || id !== a.actorId || !belongsTo(id, a.signerDomain))
    return rejected('object: only the group speaks for itself');
  const held = await ctx.stores.groups.byId(id);
  if (!held || held.originDomain !== a.signerDomain) return ignored('no group of this server is held here');
  if (held.deletedAt) return ignored('the group is deleted here');
  if (a.type === 'Update') {
    const group = readGroup(a.activity.object);
    if (!group) return rejected('object: the group is required');
    await ctx.stores.groups.cacheRemote({
      ...group,
      to: group.to === '@public' ? '@public' : group.id,
      originDomain: a.signerDomain,
    });
    return { status: 'processed' };
  }
  await ctx.stores.groups.softDelete(id, { deletedAt: new Date(), deletedBy: a.actorId });
  const members = held.circles?.members;
  if (members) await ctx.stores.circles.softDeleteCircle(members, a.actorId);
  return { status: 'processed' };
}
