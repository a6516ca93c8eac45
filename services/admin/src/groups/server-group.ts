/**
 * Server groups through the stores: a group and its five role circles (admins, moderators,
 * members, pending, blocked). The server actor holds the admin and moderator roles; the members
 * circle starts empty (users join it) and confers membership of the group.
 */
import type { AdminContext } from '../context';
import { mintId, type Member, type RSVP_POLICIES } from '@agora/common/db';

export const GROUP_ROLES = ['admins', 'moderators', 'members', 'pending', 'blocked'] as const;
type GroupRole = (typeof GROUP_ROLES)[number];
type Row = Record<string, unknown>;

const ROLE_NAMES: Record<GroupRole, string> = {
  admins: 'Admins',
  moderators: 'Moderators',
  members: 'Members',
  pending: 'Pending',
  blocked: 'Blocked',
};

export interface NewServerGroup {
  name: string;
  description?: string | undefined;
  icon?: string | undefined;
  image?: string | undefined;
  rsvpPolicy: (typeof RSVP_POLICIES)[number];
  location?: Row | undefined;
  to: string;
  canReply: string;
  canReact: string;
  owner: Member;
}

export async function createServerGroup(ctx: AdminContext, input: NewServerGroup): Promise<Row> {
  const { circles, groups } = ctx.stores;
  const id = mintId('group', ctx.config.DOMAIN);
  const base = `${ctx.config.publicUrl}/groups/${id}`;
  const made: string[] = [];
  for (const role of GROUP_ROLES)
    made.push(
      (
        await circles.create({
          name: `${input.name} - ${ROLE_NAMES[role]}`,
          actorId: id,
          type: 'System',
          to: id,
          members: role === 'admins' || role === 'moderators' ? [input.owner] : [],
          ...(role === 'members' ? { grants: id } : {}),
        })
      ).id,
    );
  const roleCircles = Object.fromEntries(GROUP_ROLES.map((role, i) => [role, made[i]!]));
  try {
    return await groups.create({
      id,
      name: input.name,
      description: input.description,
      icon: input.icon ?? `${ctx.config.publicUrl}/images/group.svg`,
      image: input.image,
      location: input.location,
      rsvpPolicy: input.rsvpPolicy,
      actorId: input.owner.id,
      actor: {
        id: input.owner.id,
        type: input.owner.type,
        name: input.owner.name,
        server: input.owner.server,
      },
      server: `@${ctx.config.DOMAIN}`,
      url: base,
      inbox: `${base}/inbox`,
      outbox: `${base}/outbox`,
      to: input.to,
      canReply: input.canReply,
      canReact: input.canReact,
      circles: roleCircles,
      memberCount: 0,
    });
  } catch (err) {
    // No transactions: undo the circles so a failed create leaves nothing behind.
    await circles.removeCircles(made);
    throw err;
  }
}

export function circleIdsOf(group: Row | null): string[] {
  const c = (group?.circles ?? {}) as Record<string, unknown>;
  return Object.values(c).filter((x): x is string => typeof x === 'string' && !!x);
}

/** The group's circles and their members' audiences (the groups they read) are stale. */
export async function touchGroup(ctx: AdminContext, group: Row | null): Promise<void> {
  for (const c of circleIdsOf(group)) await ctx.stores.circles.touch(c);
}
