/**
 * /admin/groups (spec 4.5): every group for moderation (any group can be deleted and restored,
 * unless its owner deleted it); server groups (owned by the server actor) created and edited
 * here. A group's role circles are created with it and removed by a full delete.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { RSVP_POLICIES } from '@agora/common/db';
import { BadRequest } from '@agora/common/errors';
import { domainEvent } from '@agora/common/messaging';
import type { AuthUser } from '@agora/common/http';
import { crudRouter, type Row } from '../content/crud';
import { circleIdsOf, createServerGroup, touchGroup } from './server-group';
import {
  assertNotAuthorDeleted,
  assertServerOwned,
  optionalText,
  parse,
  serverActor,
  serverAudience,
  serverCapability,
  serverAudiencePatch,
  requirePatchable,
} from '../content/shared';

export const listQuery = z.object({ rsvpPolicy: z.enum(RSVP_POLICIES).optional() });

const location = z.union([
  z
    .string()
    .max(300)
    .transform((name) => ({ name })),
  z
    .object({
      name: z.string().max(300).optional(),
      lat: z.number().min(-90).max(90),
      lon: z.number().min(-180).max(180),
    })
    .transform((l) => ({ name: l.name, type: 'Point', coordinates: [l.lon, l.lat] })),
]);

const fields = {
  name: z.string().trim().min(1).max(100),
  description: optionalText(5000),
  icon: optionalText(2000),
  image: optionalText(2000),
  rsvpPolicy: z.enum(RSVP_POLICIES),
  location: location.optional(),
};
export const createBody = z.object({ ...fields, rsvpPolicy: fields.rsvpPolicy.default('open') });
export const updateBody = z.object(fields).partial();
const PATCHABLE = [
  'name',
  'description',
  'icon',
  'image',
  'rsvpPolicy',
  'location',
  'to',
  'canReply',
  'canReact',
];

export function groupsRouter(ctx: AdminContext) {
  const { groups } = ctx.stores;

  const removed = (row: Row, admin: AuthUser) => [
    domainEvent('group.deleted', {
      objectId: String(row.id),
      objectType: 'Group',
      actorId: admin.id,
      ownerId: String(row.actorId),
    }),
  ];

  return crudRouter(ctx, {
    name: 'group',
    type: 'Group',
    list(query, deleted, paging) {
      const q = parse(listQuery, { rsvpPolicy: query.rsvpPolicy }, 'query');
      return groups.pageForAdmin({ deleted, rsvpPolicy: q.rsvpPolicy }, paging);
    },
    find: (id) => groups.byId(id),
    async create(body) {
      const b = parse(createBody, body);
      const to = serverAudience(ctx, body.to, 'to');
      const actor = await serverActor(ctx);
      const row = await createServerGroup(ctx, {
        ...b,
        to,
        canReply: serverCapability(ctx, body.canReply, 'canReply', to),
        canReact: serverCapability(ctx, body.canReact, 'canReact', to),
        owner: { id: actor.id, type: actor.type, name: actor.name, server: actor.server },
      });
      const event = domainEvent('group.created', {
        groupId: String(row.id),
        actorId: actor.id,
        to,
        rsvpPolicy: b.rsvpPolicy,
      });
      return { row, to, events: [event] };
    },
    async update(row, body, admin) {
      assertServerOwned(ctx, row, 'groups');
      if (row.deletedAt) throw new BadRequest('id: a deleted group cannot be edited; restore it first');
      const b = parse(updateBody, body);
      const set: Row = { ...b };
      const audience = serverAudiencePatch(ctx, body, String(row.to));
      Object.assign(set, audience.set);
      const to = audience.to;
      requirePatchable(body, PATCHABLE);
      const updated = await groups.set(String(row.id), set);
      await touchGroup(ctx, updated);
      const event = domainEvent('group.updated', {
        objectId: String(row.id),
        objectType: 'Group',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: Object.keys(set),
      });
      return { row: updated!, to, events: [event] };
    },
    assertRestorable: (row) => assertNotAuthorDeleted(row, 'group'),
    async softDelete(id, by) {
      const before = await groups.softDelete(id, { deletedAt: new Date(), deletedBy: by });
      await touchGroup(ctx, before);
      return !!before;
    },
    async restore(id) {
      const after = await groups.restore(id);
      await touchGroup(ctx, after);
      return !!after;
    },
    async hardDelete(id) {
      const group = (await groups.byId(id)) as unknown as Row | null;
      if (!group) return false;
      await touchGroup(ctx, group);
      for (const c of circleIdsOf(group)) await ctx.stores.timelines.dropCircle(c, []);
      await ctx.stores.circles.removeCircles(circleIdsOf(group));
      return groups.hardDelete(id);
    },
    deletedEvents: removed,
  });
}
