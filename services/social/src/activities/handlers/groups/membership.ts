/**
 * Group Add/Remove (behaviour-notes §4.3 Add/Remove, §4.5): `{ to: <group>, target?: <one of
 * its circles, default members>, object: <user> }`, by group admins only. Add to members
 * approves a pending request; Remove of a pending user rejects it; Remove from members keeps
 * `memberCount` and the member's Groups circle in step (the reference's drift bug, §11.2-15).
 */
import { parseId } from '@agora/common/db';
import { BadRequest, Conflict, NotAuthorized } from '@agora/common/errors';
import type { ActivityHandler, DomainEvent, HandlerContext, HandlerResult } from '../../types';
import { idString, parse } from '../../validate';
import { resolveMember } from '../../members';
import { GROUP_ROLES, groupRoles, type GroupRecord, type GroupRole } from '../../../access/groups';
import {
  assertKeepsAnAdmin,
  circleOf,
  disenrol,
  enrol,
  freshGroup,
  loadLocalGroup,
  removeCircleMember,
} from './shared';
import { domainEvent } from '@agora/common/messaging';

interface Change {
  group: GroupRecord;
  role: GroupRole;
}

/** The group, the circle acted on, and the check that the actor administers the group. */
async function resolveChange(ctx: HandlerContext): Promise<Change> {
  const { svc, actor, activity } = ctx;
  const group = await loadLocalGroup(svc, activity.to, 'to');
  let role: GroupRole = 'members';
  if (activity.target !== undefined) {
    const target = parse(idString, activity.target, 'target');
    const found = GROUP_ROLES.find((r) => group.circles?.[r] === target);
    if (!found) throw new BadRequest("target: must be one of the group's circles");
    role = found;
  }
  if (!(await groupRoles(svc, group, actor.id)).admins)
    throw new NotAuthorized('Only group admins can change its members');
  return { group, role };
}

function memberIdOf(ref: unknown): string {
  const id = parse(
    idString,
    typeof ref === 'object' && ref !== null && !Array.isArray(ref) ? (ref as { id?: unknown }).id : ref,
    'object',
  );
  if (parseId(id).type !== 'User') throw new BadRequest('object: must be a user id');
  return id;
}

async function done(ctx: HandlerContext, change: Change, events: DomainEvent[]): Promise<HandlerResult> {
  const { group, role } = change;
  return {
    result: await freshGroup(ctx.svc, group.id),
    objectId: group.id,
    objectType: 'Group',
    target: circleOf(group, role),
    to: group.id,
    events,
  };
}

export const addToGroup: ActivityHandler = async (ctx) => {
  const { svc, actor, activity } = ctx;
  const memberId = memberIdOf(activity.object);
  const change = await resolveChange(ctx);
  const { group, role } = change;
  const roles = await groupRoles(svc, group, memberId);
  const base = { groupId: group.id, memberId, actorId: actor.id };
  if (role === 'pending') throw new BadRequest('target: join requests are made with Join');
  if (role === 'members') {
    if (roles.blocked) throw new Conflict('This user is blocked from the group');
    const added = await enrol(svc, group, await resolveMember(svc, memberId));
    const events: DomainEvent[] = [];
    if (added)
      events.push(
        domainEvent('member.added', { ...base, circleId: circleOf(group, 'members'), ownerId: group.id }),
      );
    if (added && roles.pending) events.push(domainEvent('group.join_approved', base));
    return done(ctx, change, events);
  }
  if (role === 'blocked') {
    if (memberId === actor.id) throw new BadRequest('object: you cannot block yourself');
    const removed = await disenrol(svc, group, memberId);
    const blocked = await svc.stores.circles.addMember(
      circleOf(group, 'blocked'),
      await resolveMember(svc, memberId),
    );
    return done(ctx, change, [
      ...(removed.members
        ? [
            domainEvent('member.removed', {
              ...base,
              circleId: circleOf(group, 'members'),
              ownerId: group.id,
            }),
          ]
        : []),
      ...(blocked ? [domainEvent('group.member_blocked', base)] : []),
    ]);
  }
  // Admins and moderators are roles of members.
  if (!roles.members) throw new BadRequest(`object: only members can be made ${role}`);
  const added = await svc.stores.circles.addMember(circleOf(group, role), await resolveMember(svc, memberId));
  return done(ctx, change, added ? [domainEvent('group.role_added', { ...base, role })] : []);
};

export const removeFromGroup: ActivityHandler = async (ctx) => {
  const { svc, actor, activity } = ctx;
  const memberId = memberIdOf(activity.object);
  const change = await resolveChange(ctx);
  const { group, role } = change;
  const roles = await groupRoles(svc, group, memberId);
  const base = { groupId: group.id, memberId, actorId: actor.id };
  // Remove from members of someone who only asked to join = reject the request.
  if (role === 'pending' || (role === 'members' && !roles.members && roles.pending)) {
    const rejected = await removeCircleMember(svc, circleOf(group, 'pending'), memberId);
    return done(ctx, change, rejected ? [domainEvent('group.join_rejected', base)] : []);
  }
  if (role === 'members') {
    await assertKeepsAnAdmin(svc, group, memberId);
    const removed = await disenrol(svc, group, memberId);
    return done(
      ctx,
      change,
      removed.members
        ? [
            domainEvent('member.removed', {
              ...base,
              circleId: circleOf(group, 'members'),
              ownerId: group.id,
            }),
          ]
        : [],
    );
  }
  if (role === 'admins') await assertKeepsAnAdmin(svc, group, memberId, { roleOnly: true });
  const removed = await removeCircleMember(svc, circleOf(group, role), memberId);
  return done(
    ctx,
    change,
    removed
      ? [
          {
            name: role === 'blocked' ? 'group.member_unblocked' : 'group.role_removed',
            payload: { ...base, role },
          },
        ]
      : [],
  );
};
