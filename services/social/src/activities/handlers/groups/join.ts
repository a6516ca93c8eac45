/**
 * Join and Leave a local group (behaviour-notes §4.3 Join/Leave, fixed: the group must be
 * visible to the actor, and Leave keeps the actor's Groups circle in step). Another server's
 * group is asked there (remote.ts).
 */
import { canSee } from '@agora/common/audience';
import { NotAuthorized, NotFound } from '@agora/common/errors';
import type { AuthUser } from '@agora/common/http';
import type { SocialContext } from '../../../context';
import type { ActivityHandler, DomainEvent, HandlerResult } from '../../types';
import { actorRef } from '../../validate';
import { circleMemberIds, groupRoles, type GroupRecord } from '../../../access/groups';
import { assertKeepsAnAdmin, circleOf, disenrol, enrol, freshGroup, loadLocalGroup } from './shared';
import { domainEvent } from '@agora/common/messaging';
import { remoteGroupId, sendMembership } from './remote';

type JoinOutcome = 'joined' | 'already_joined' | 'pending' | 'already_pending';

/** What a local actor's Join does under each policy (remote actors arrive with federation). */
function policyFor(group: GroupRecord): 'join' | 'approve' | 'refuse' {
  switch (group.rsvpPolicy) {
    case 'open':
    case 'serverOpen':
      return 'join';
    case 'serverApproval':
    case 'approvalOnly':
      return 'approve';
    case 'inviteOnly':
      return 'refuse';
    default:
      return 'approve';
  }
}

function memberOf(ctx: SocialContext, actor: AuthUser) {
  const ref = actorRef(actor);
  const { inbox, outbox } = actor.record;
  return {
    id: actor.id,
    type: 'Person',
    name: ref.name,
    icon: ref.icon,
    url: ref.url,
    inbox: typeof inbox === 'string' ? inbox : '',
    outbox: typeof outbox === 'string' ? outbox : '',
    server: `@${ctx.config.DOMAIN}`,
  };
}

async function outcome(
  ctx: SocialContext,
  group: GroupRecord,
  status: JoinOutcome | 'left',
  events: DomainEvent[],
): Promise<HandlerResult> {
  return {
    result: { ...(await freshGroup(ctx, group.id)), status },
    objectId: group.id,
    objectType: 'Group',
    target: group.id,
    to: group.id,
    events,
  };
}

export const joinGroup: ActivityHandler = async (hctx) => {
  const { svc: ctx, actor, viewer, activity } = hctx;
  const remote = remoteGroupId(ctx, activity.target);
  if (remote) return sendMembership(hctx, remote, 'join');
  const group = await loadLocalGroup(ctx, activity.target, 'target');
  const roles = await groupRoles(ctx, group, actor.id);
  // A group the actor cannot see does not exist for them (the reference let anyone join any id).
  if (!canSee(group, viewer, ctx.config.DOMAIN) && !roles.members && !roles.pending)
    throw new NotFound('Group not found');
  if (roles.blocked) throw new NotAuthorized('You are blocked from this group');
  if (roles.members) return outcome(ctx, group, 'already_joined', []);
  const policy = policyFor(group);
  if (policy === 'refuse') throw new NotAuthorized('This group is invite-only');
  if (policy === 'approve') {
    if (roles.pending) return outcome(ctx, group, 'already_pending', []);
    const added = await ctx.stores.circles.addMember(circleOf(group, 'pending'), memberOf(ctx, actor));
    const adminIds = await circleMemberIds(ctx, group, 'admins');
    return outcome(
      ctx,
      group,
      'pending',
      added ? [domainEvent('group.join_requested', { groupId: group.id, actorId: actor.id, adminIds })] : [],
    );
  }
  const added = await enrol(ctx, group, memberOf(ctx, actor));
  const events: DomainEvent[] = added
    ? [
        domainEvent('member.added', {
          circleId: circleOf(group, 'members'),
          ownerId: group.id,
          groupId: group.id,
          memberId: actor.id,
          actorId: actor.id,
        }),
      ]
    : [];
  return outcome(ctx, group, added ? 'joined' : 'already_joined', events);
};

export const leaveGroup: ActivityHandler = async (hctx) => {
  const { svc: ctx, actor, viewer, activity } = hctx;
  const remote = remoteGroupId(ctx, activity.target);
  if (remote) return sendMembership(hctx, remote, 'leave');
  const group = await loadLocalGroup(ctx, activity.target, 'target');
  const roles = await groupRoles(ctx, group, actor.id);
  if (!canSee(group, viewer, ctx.config.DOMAIN) && !roles.members && !roles.pending)
    throw new NotFound('Group not found');
  await assertKeepsAnAdmin(ctx, group, actor.id);
  const removed = await disenrol(ctx, group, actor.id);
  const events: DomainEvent[] = removed.members
    ? [
        domainEvent('member.removed', {
          circleId: circleOf(group, 'members'),
          ownerId: group.id,
          groupId: group.id,
          memberId: actor.id,
          actorId: actor.id,
        }),
      ]
    : [];
  const result = await outcome(ctx, group, 'left', events);
  result.result = {
    ...result.result,
    removedFrom: [...(removed.members ? ['members'] : []), ...(removed.pending ? ['pending'] : [])],
  };
  return result;
};
