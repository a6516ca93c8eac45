/**
 * /admin/circles (spec 4.5): every circle readable for moderation; server circles (owned by the
 * server actor) created, edited, deleted and restored here. Users' circles are theirs: an admin
 * reads them but changes them through the outbox like anyone else. The role circles (admins,
 * moderators) and system circles are never deleted. A delete takes the circle's timeline with
 * it; a restore rebuilds it from its members' recent posts.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import { domainEvent } from '@agora/common/messaging';
import { idString } from '@agora/common/validation';
import type { AuthUser } from '@agora/common/http';
import { crudRouter, type Row } from '../content/crud';
import {
  assertServerOwned,
  optionalText,
  parse,
  serverAudience,
  serverCapability,
  serverAudiencePatch,
  requirePatchable,
} from '../content/shared';

export const listQuery = z.object({
  type: z.enum(['Circle', 'System']).default('Circle'),
  server: z.enum(['true', 'false']).optional(),
  actorId: idString.optional(),
  to: z.string().max(300).optional(),
});

const fields = {
  name: z.string().trim().min(1).max(100),
  summary: optionalText(2000),
  icon: optionalText(2000),
};
export const createBody = z.object(fields);
export const updateBody = z.object(fields).partial();
const PATCHABLE = ['name', 'summary', 'icon', 'to', 'canReply', 'canReact'];

const memberIds = (c: { members?: Array<{ id: string }> | null } | null) =>
  (c?.members ?? []).map((m) => m.id);

export function circlesRouter(ctx: AdminContext) {
  const { circles, settings, timelines } = ctx.stores;
  const domain = ctx.config.DOMAIN;

  const assertChangeable = async (row: Row) => {
    assertServerOwned(ctx, row, 'circles');
    const roles = [await settings.get<string>('adminCircle'), await settings.get<string>('modCircle')];
    if (row.type === 'System' || roles.includes(String(row.id)))
      throw new NotAuthorized('The server role circles cannot be deleted');
  };

  const removed = (row: Row, admin: AuthUser) => [
    domainEvent('circle.deleted', {
      objectId: String(row.id),
      objectType: 'Circle',
      actorId: admin.id,
      ownerId: String(row.actorId),
    }),
  ];

  return crudRouter(ctx, {
    name: 'circle',
    type: 'Circle',
    list(query, deleted, paging) {
      const q = parse(
        listQuery,
        { type: query.type, server: query.server, actorId: query.actorId, to: query.to },
        'query',
      );
      return circles.pageForAdmin(
        { deleted, type: q.type, serverOnly: q.server === 'true', actorId: q.actorId, to: q.to },
        paging,
      );
    },
    find: (id) => circles.byId(id),
    async create(body) {
      const b = parse(createBody, body);
      const to = serverAudience(ctx, body.to, 'to');
      const circle = await circles.create({
        name: b.name,
        actorId: `@${domain}`,
        to,
        canReply: serverCapability(ctx, body.canReply, 'canReply', to),
        canReact: serverCapability(ctx, body.canReact, 'canReact', to),
        ...(b.summary ? { summary: b.summary } : {}),
        ...(b.icon ? { icon: b.icon } : {}),
      });
      const row = circle as unknown as Row;
      return {
        row,
        to,
        events: [domainEvent('circle.created', { circleId: circle.id, actorId: `@${domain}`, to })],
      };
    },
    async update(row, body, admin) {
      assertServerOwned(ctx, row, 'circles');
      if (row.deletedAt) throw new BadRequest('id: a deleted circle cannot be edited; restore it first');
      const b = parse(updateBody, body);
      const set: Row = { ...b };
      const audience = serverAudiencePatch(ctx, body, String(row.to));
      Object.assign(set, audience.set);
      const to = audience.to;
      requirePatchable(body, PATCHABLE);
      const updated = await circles.update(String(row.id), set);
      const event = domainEvent('circle.updated', {
        objectId: String(row.id),
        objectType: 'Circle',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: Object.keys(set),
      });
      return { row: updated!, to, events: [event] };
    },
    assertDeletable: assertChangeable,
    assertRestorable: assertChangeable,
    // The timeline goes with the circle; a restore rebuilds it from its members' recent posts.
    async softDelete(id, by) {
      const before = await circles.softDeleteCircle(id, by);
      if (before) await timelines.dropCircle(id, memberIds(before));
      return !!before;
    },
    async restore(id) {
      const after = await circles.restoreCircle(id);
      for (const m of memberIds(after)) await timelines.backfill(id, m);
      return !!after;
    },
    async hardDelete(id) {
      const circle = await circles.byId(id);
      if (!circle) return false;
      await timelines.dropCircle(id, memberIds(circle));
      await circles.removeCircles([id]);
      return true;
    },
    deletedEvents: removed,
  });
}
