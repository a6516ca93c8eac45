/**
 * How the Agora-to-Agora protocol writes audiences on the wire (the domain decisions are in
 * audience.ts): a post to a circle carries the circle id in `to` (activity and object), the
 * receiving server's actors in `recipients` (each delivery names only its own server's), and the
 * circle in `circle` (`{ id, actorId, name, rev }`: owner, name and the revision of its members).
 * Add and Remove of a member carry the member in `object` and the circle in `target`, with
 * `members`: every actor of the receiving server the circle holds at that revision, so any one of
 * them brings the receiver's copy up to date whatever arrived before.
 */
import type { UserRecord } from '@agora/common/db';
import type { FederationContext } from '../context';
import type { AddressedCircle, Audience, DeliveryTarget } from './audience';
import type { OutgoingActivity } from './activity';

/** A post activity as sent to one target: addressed to the post's circle, naming its recipients. */
export function addressed(
  activity: OutgoingActivity,
  audience: Audience,
  target: DeliveryTarget,
): OutgoingActivity {
  if (audience.to === '@public') return activity;
  const object = activity.object;
  return {
    ...activity,
    to: [audience.to],
    recipients: target.recipients,
    ...(audience.circle ? { circle: audience.circle } : {}),
    ...(audience.group ? { group: audience.group } : {}),
    ...(typeof object === 'object' && object !== null ? { object: { ...object, to: [audience.to] } } : {}),
  };
}

const suffix = (kind: string, eventId: string) => `${kind}-${encodeURIComponent(eventId)}`;

/** Add (the member is in the circle now) or Remove (it is not), with the receiver's members. */
export function membershipActivity(
  ctx: FederationContext,
  circle: AddressedCircle,
  memberId: string,
  members: string[],
  eventId: string,
): OutgoingActivity {
  const type = members.includes(memberId) ? 'Add' : 'Remove';
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/circles/${encodeURIComponent(circle.id)}#${suffix(type.toLowerCase(), eventId)}`,
    type,
    actorId: circle.actorId,
    actor: { id: circle.actorId, inbox: `${ctx.config.publicUrl}/inbox` },
    object: memberId,
    target: { ...circle, type: 'Circle', members },
  };
}

/** Delete of a circle: its members' servers drop their copy. */
export function deleteCircleActivity(
  ctx: FederationContext,
  circle: { id: string; actorId: string },
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/circles/${encodeURIComponent(circle.id)}#${suffix('delete', eventId)}`,
    type: 'Delete',
    actorId: circle.actorId,
    actor: { id: circle.actorId, inbox: `${ctx.config.publicUrl}/inbox` },
    object: circle.id,
  };
}

/** An absolute URL for a stored image reference (`/files/…` is on this server). */
function absolute(ctx: FederationContext, ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  if (/^https?:\/\//i.test(ref)) return ref;
  return ref.startsWith('/') ? `${ctx.config.publicUrl}${ref}` : undefined;
}

/**
 * Update of a local actor: the name and icon other servers copy onto what it wrote. `suspended`
 * marks an admin's suspension (ADR 0028): the object carries `suspended: true`, which a peer may
 * act on (hide the actor's copies) and undo at the next Update without it.
 */
export function updateActorActivity(
  ctx: FederationContext,
  user: UserRecord,
  eventId: string,
  opts: { suspended?: boolean } = {},
): OutgoingActivity {
  const icon = absolute(ctx, user.profile?.icon);
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/users/${encodeURIComponent(user.id)}#${suffix('update', eventId)}`,
    type: 'Update',
    actorId: user.id,
    actor: { id: user.id, inbox: `${ctx.config.publicUrl}/inbox` },
    object: {
      id: user.id,
      type: 'Person',
      preferredUsername: user.username,
      name: user.profile?.name || user.username,
      ...(icon ? { icon } : {}),
      url: user.url ?? undefined,
      ...(opts.suspended ? { suspended: true } : {}),
    },
  };
}
