/** Create Group (behaviour-notes §2.4 Group, §4.3 Create, §4.5 cookbook). */
import { z } from 'zod';
import { canonicalTo } from '@agora/common/audience';
import { RSVP_POLICIES, mintId, type Member } from '@agora/common/db';
import type { SocialContext } from '../../../context';
import type { ActivityHandler } from '../../types';
import { actorRef, mediaRef, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
import { GROUP_ROLES, type GroupRecord, type GroupRole } from '../../../access/groups';
import { addToGroupsCircle, freshGroup } from './shared';
import { domainEvent } from '@agora/common/messaging';

const groupObject = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(5000).optional(),
  icon: mediaRef.optional(),
  image: mediaRef.optional(),
  rsvpPolicy: z.enum(RSVP_POLICIES).default('open'),
  location: z
    .union([
      z.string().max(300),
      z.object({
        name: z.string().max(300).optional(),
        lat: z.number().min(-90).max(90),
        lon: z.number().min(-180).max(180),
      }),
    ])
    .optional(),
});

const CIRCLE_NAMES: Record<GroupRole, string> = {
  admins: 'Admins',
  moderators: 'Moderators',
  members: 'Members',
  pending: 'Pending',
  blocked: 'Blocked',
};

/** The five circles of a new group, owned by the group and readable by its members. */
async function createCircles(
  ctx: SocialContext,
  groupId: string,
  name: string,
  creator: Member,
): Promise<Record<GroupRole, string>> {
  const seeded: GroupRole[] = ['admins', 'moderators', 'members'];
  // One after another: each adds the creator to their membership index (one document).
  const made: Array<{ id: string }> = [];
  for (const role of GROUP_ROLES)
    made.push(
      await ctx.stores.circles.create({
        name: `${name} - ${CIRCLE_NAMES[role]}`,
        actorId: groupId,
        type: 'System',
        to: groupId,
        members: seeded.includes(role) ? [creator] : [],
        // Membership of the members circle is membership of the group (the membership index).
        ...(role === 'members' ? { grants: groupId } : {}),
      }),
    );
  return Object.fromEntries(GROUP_ROLES.map((role, i) => [role, made[i]!.id])) as Record<GroupRole, string>;
}

export const createGroup: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  const obj = parse(groupObject, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  const id = mintId('group', domain);
  const base = `${ctx.config.publicUrl}/groups/${id}`;
  const ref = actorRef(actor);
  const circles = await createCircles(ctx, id, obj.name, {
    id: actor.id,
    type: 'Person',
    name: ref.name,
    icon: ref.icon,
    url: ref.url,
    server: `@${domain}`,
  });
  const loc =
    obj.location === undefined
      ? undefined
      : typeof obj.location === 'string'
        ? { name: obj.location }
        : { name: obj.location.name, type: 'Point', coordinates: [obj.location.lon, obj.location.lat] };
  try {
    await ctx.stores.groups.create({
      id,
      name: obj.name,
      description: obj.description,
      icon: obj.icon ?? `${ctx.config.publicUrl}/images/group.svg`,
      image: obj.image,
      location: loc,
      rsvpPolicy: obj.rsvpPolicy,
      actorId: actor.id,
      actor: ref,
      server: `@${domain}`,
      url: base,
      inbox: `${base}/inbox`,
      outbox: `${base}/outbox`,
      to,
      canReply,
      canReact,
      circles,
      memberCount: 1,
    });
  } catch (err) {
    // No transactions: undo the circles so a failed create leaves nothing behind.
    await ctx.stores.circles.removeCircles(Object.values(circles));
    throw err;
  }
  const group = (await freshGroup(ctx, id)) as GroupRecord & Record<string, unknown>;
  await addToGroupsCircle(ctx, actor.id, group);
  return {
    result: group,
    objectId: id,
    objectType: 'Group',
    to,
    events: [
      domainEvent('group.created', { groupId: id, actorId: actor.id, to, rsvpPolicy: obj.rsvpPolicy }),
    ],
  };
};
