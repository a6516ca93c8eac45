/**
 * How the Agora-to-Agora protocol writes group membership on the wire (the decisions are in
 * group-plan.ts): a remote user's `Join` and `Leave` (`object`: the group id) go to the group's
 * server; the group answers a Join with `Accept` or `Reject` (`object`: the Join, as `{ type,
 * actor, object }`), and states a member's place with `Add` or `Remove` of its members circle
 * (audience-activity.ts's membership form). Each carries `group`, the group as its member servers
 * cache it.
 */
import type { FederationContext } from '../context';
import type { OutgoingActivity } from './activity';
import type { AddressedGroup } from './audience';

const suffix = (kind: string, eventId: string) => `${kind}-${encodeURIComponent(eventId)}`;

/** A local user's Join or Leave of another server's group. */
export function joinActivity(
  ctx: FederationContext,
  type: 'Join' | 'Leave',
  actorId: string,
  groupId: string,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/users/${encodeURIComponent(actorId)}#${suffix(type.toLowerCase(), eventId)}`,
    type,
    actorId,
    actor: { id: actorId, inbox: `${ctx.config.publicUrl}/inbox` },
    object: groupId,
  };
}

/** The group's answer to a remote user's Join: approved (Accept) or refused (Reject). */
export function answerActivity(
  ctx: FederationContext,
  type: 'Accept' | 'Reject',
  group: AddressedGroup,
  memberId: string,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/groups/${encodeURIComponent(group.id)}#${suffix(type.toLowerCase(), eventId)}`,
    type,
    actorId: group.id,
    actor: { id: group.id, inbox: `${ctx.config.publicUrl}/inbox` },
    object: { type: 'Join', actor: memberId, object: group.id },
    group,
  };
}

/** A group's server passing on a member's post activity (already addressed to one server). */
export function relayActivity(
  ctx: FederationContext,
  groupId: string,
  inner: OutgoingActivity,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/groups/${encodeURIComponent(groupId)}#${suffix('relay', eventId)}`,
    type: 'Announce',
    actorId: groupId,
    actor: { id: groupId, inbox: `${ctx.config.publicUrl}/inbox` },
    object: inner,
  };
}

/** A group's description changed (Update of the group) or it was deleted (Delete of it). */
export function groupChangeActivity(
  ctx: FederationContext,
  type: 'Update' | 'Delete',
  group: AddressedGroup,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/groups/${encodeURIComponent(group.id)}#${suffix(type.toLowerCase(), eventId)}`,
    type,
    actorId: group.id,
    actor: { id: group.id, inbox: `${ctx.config.publicUrl}/inbox` },
    object: type === 'Update' ? { ...group, type: 'Group' } : group.id,
  };
}
