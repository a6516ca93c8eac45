/**
 * Join and Leave of another server's group by a local user (docs/federation.md, "Groups"): the
 * group's server decides, as for its own users, so the request is sent there (`group.join_sent`,
 * `group.leave_sent`, planned by the federation service) and answered `requested`. What it
 * decides comes back as Add or Remove of its members circle (the user's membership here, in the
 * cached group) and, for a request an admin approved, Accept (the `join_approved` notification).
 */
import { parseId } from '@agora/common/db';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import { domainEvent } from '@agora/common/messaging';
import type { SocialContext } from '../../../context';
import type { HandlerContext, HandlerResult } from '../../types';
import { idString, parse } from '../../validate';
import { GROUP_ID } from '../../../access/groups';
import { freshGroup } from './shared';

/** The group id of a Join or Leave when it is another server's; undefined for a local one. */
export function remoteGroupId(ctx: SocialContext, value: unknown): string | undefined {
  if (typeof value !== 'string' || !GROUP_ID.test(value)) return undefined;
  const domain = parseId(value).domain;
  return domain && domain !== ctx.config.DOMAIN ? value : undefined;
}

export async function sendMembership(
  ctx: HandlerContext,
  groupId: string,
  kind: 'join' | 'leave',
): Promise<HandlerResult> {
  const { svc, actor, viewer } = ctx;
  parse(idString, groupId, 'target');
  if (!viewer.local) throw new NotAuthorized('Only local users can join other servers’ groups');
  const cached = await svc.stores.groups.liveById(groupId);
  if (cached && !cached.originDomain) throw new BadRequest('target: must be a group id');
  // A Leave by a non-member is sent too: it withdraws a request pending on the group's server,
  // which alone knows of it (a Leave from someone neither member nor pending is ignored there).
  const member = viewer.groupIds.includes(groupId);
  const status =
    kind === 'join' && member ? 'already_joined' : kind === 'join' ? 'requested' : 'leave_requested';
  return {
    result: { ...((cached && (await freshGroup(svc, groupId))) ?? { id: groupId, type: 'Group' }), status },
    objectId: groupId,
    objectType: 'Group',
    target: groupId,
    to: groupId,
    events:
      status === 'already_joined'
        ? []
        : [
            domainEvent(kind === 'join' ? 'group.join_sent' : 'group.leave_sent', {
              groupId,
              actorId: actor.id,
            }),
          ],
  };
}
