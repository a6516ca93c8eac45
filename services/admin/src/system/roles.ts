/**
 * Admin and moderator membership (spec 4.5): acts on the server-owned role circles directly,
 * bypassing the activity pipeline. The server never loses its last admin: removing the last
 * one, or removing yourself, is refused (409).
 */
import { z } from 'zod';
import type { Member } from '@agora/common/db';
import { BadRequest, Conflict, NotFound } from '@agora/common/errors';
import { Router, handler } from '@agora/common/http';
import type { AdminContext } from '../context';
import { idString, parseInput as parse } from '@agora/common/validation';

type Role = 'admins' | 'mods';
const SETTING: Record<Role, 'adminCircle' | 'modCircle'> = { admins: 'adminCircle', mods: 'modCircle' };

async function roleCircleId(ctx: AdminContext, role: Role): Promise<string> {
  const id = await ctx.stores.settings.get<string>(SETTING[role]);
  // Seeded at first start; missing means a broken install, not a client error.
  if (typeof id !== 'string' || !id) throw new Error(`${SETTING[role]} is not configured`);
  return id;
}

async function membersOf(ctx: AdminContext, circleId: string): Promise<Member[]> {
  const circle = await ctx.stores.circles.byId(circleId);
  return circle?.members ?? [];
}

export const addBody = z.object({ userId: idString });

export function roleRouter(ctx: AdminContext, role: Role): Router {
  const r = Router();

  r.get(
    '/',
    handler(async ({ set }) => {
      set('members', await membersOf(ctx, await roleCircleId(ctx, role)));
    }),
  );

  r.post(
    '/',
    handler(async ({ body, set }) => {
      if (body.userId === undefined) throw new BadRequest('userId: required');
      const { userId } = parse(addBody, body);
      const circleId = await roleCircleId(ctx, role);
      const user = await ctx.stores.users.findActiveById(userId);
      // Only live local accounts can hold a server role.
      if (!user || user.domain !== ctx.config.DOMAIN) throw new NotFound('User not found');
      const added = await ctx.stores.circles.addMember(circleId, {
        id: user.id,
        type: 'Person',
        name: user.profile?.name ?? user.username,
        icon: user.profile?.icon ?? '',
        url: user.url ?? '',
        inbox: user.inbox ?? '',
        outbox: user.outbox ?? '',
        server: user.server ?? '',
      });
      set('ok', true);
      if (!added) set('alreadyMember', true);
    }),
  );

  r.delete(
    '/:userId',
    handler(async ({ params, user, set }) => {
      const userId = parse(idString, params.userId, 'userId');
      const circleId = await roleCircleId(ctx, role);
      const members = await membersOf(ctx, circleId);
      if (!members.some((m) => m.id === userId)) throw new NotFound('Not a member');
      if (role === 'admins') {
        if (userId === user!.id) throw new Conflict('You cannot remove yourself from the admins');
        if (members.length <= 1) throw new Conflict('Cannot remove the last admin');
      }
      await ctx.stores.circles.removeMember(circleId, userId);
      // Two concurrent removals can both pass the check above: put the member back if none is left.
      if (role === 'admins' && (await membersOf(ctx, circleId)).length === 0) {
        await ctx.stores.circles.addMember(
          circleId,
          members.find((m) => m.id === userId)!,
        );
        throw new Conflict('Cannot remove the last admin');
      }
      set('ok', true);
    }),
  );
  return r;
}
