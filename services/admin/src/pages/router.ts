/**
 * /admin/pages (spec 4.3, 4.5): the server's pages. Pages are server content whoever wrote them
 * (only admins may), so every local page is editable here; pages made here are owned by the
 * server actor. Found by id or slug.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest } from '@agora/common/errors';
import { newPage, pageChanges, pageInput, pagePatchInput, wantedSlug } from '@agora/common/content';
import { domainEvent } from '@agora/common/messaging';
import { idString } from '@agora/common/validation';
import { mintId } from '@agora/common/db';
import type { AuthUser } from '@agora/common/http';
import { crudRouter, type Row } from '../content/crud';
import {
  parse,
  serverActor,
  serverAudience,
  serverCapability,
  serverAudiencePatch,
  requirePatchable,
} from '../content/shared';

export const listQuery = z.object({
  type: z.enum(['Page', 'Folder']).optional(),
  parentId: idString.optional(),
});

const PATCHABLE = [...Object.keys(pagePatchInput.shape), 'to', 'canReply', 'canReact'];

export function pagesRouter(ctx: AdminContext) {
  const { pages } = ctx.stores;

  const checkParent = async (parentId: string | null | undefined, self?: string) => {
    if (!parentId) return;
    if (parentId === self) throw new BadRequest('parentId: a page cannot be its own parent');
    const parent = await pages.liveById(parentId);
    if (!parent || parent.originDomain) throw new BadRequest('parentId: no such page');
  };

  const removed = (row: Row, admin: AuthUser) => [
    domainEvent('page.deleted', {
      objectId: String(row.id),
      objectType: 'Page',
      actorId: admin.id,
      ownerId: String(row.actorId),
    }),
  ];

  return crudRouter(ctx, {
    name: 'page',
    type: 'Page',
    list(query, deleted, paging) {
      const q = parse(listQuery, { type: query.type, parentId: query.parentId }, 'query');
      return pages.pageForAdmin({ deleted, type: q.type, parentId: q.parentId }, paging);
    },
    find: async (id) => (await pages.byId(id)) ?? (await pages.anyLocalBySlug(id)),
    async create(body) {
      const b = parse(pageInput, body);
      const to = serverAudience(ctx, body.to, 'to');
      const canReply = serverCapability(ctx, body.canReply, 'canReply', to);
      const canReact = serverCapability(ctx, body.canReact, 'canReact', to);
      await checkParent(b.parentId);
      const actor = await serverActor(ctx);
      const id = mintId('page', ctx.config.DOMAIN);
      const row = (await pages.createUnderFreeSlug(wantedSlug(b.slug ?? b.title), (slug) =>
        newPage(
          b,
          { id, author: actor, server: actor.server, publicUrl: ctx.config.publicUrl },
          { to, canReply, canReact },
          slug,
        ),
      )) as unknown as Row;
      const event = domainEvent('page.created', {
        pageId: String(row.id),
        actorId: actor.id,
        slug: String(row.slug),
        to,
      });
      return { row, to, events: [event] };
    },
    async update(row, body, admin) {
      if (row.originDomain) throw new BadRequest('id: a copy of a remote page cannot be edited');
      if (row.deletedAt) throw new BadRequest('id: a deleted page cannot be edited; restore it first');
      const b = parse(pagePatchInput, body);
      requirePatchable(body, PATCHABLE);
      await checkParent(b.parentId, String(row.id));
      const audience = serverAudiencePatch(ctx, body, String(row.to));
      const changes = (slug?: string) =>
        pageChanges(b, { publicUrl: ctx.config.publicUrl, slug }, audience.set);
      // The fields as set (a slug asked for is made free at the write).
      const set = changes(b.slug === undefined ? undefined : '');
      const updated = (b.slug === undefined
        ? await pages.set(String(row.id), changes())
        : await pages.setUnderFreeSlug(String(row.id), wantedSlug(b.slug), changes)) as unknown as Row;
      const event = domainEvent('page.updated', {
        objectId: String(row.id),
        objectType: 'Page',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: Object.keys(set),
      });
      return { row: updated, to: audience.to, events: [event] };
    },
    async softDelete(id, by) {
      const current = await pages.byId(id);
      const former = current?.type && current.type !== 'Tombstone' ? { formerType: current.type } : {};
      return !!(await pages.softDelete(id, {
        deletedAt: new Date(),
        deletedBy: by,
        type: 'Tombstone',
        ...former,
      }));
    },
    async restore(id) {
      const current = await pages.byId(id);
      const type = current?.formerType || (current?.type === 'Tombstone' ? 'Page' : current?.type);
      return !!(await pages.restore(id, { type }));
    },
    hardDelete: (id) => pages.hardDelete(id),
    deletedEvents: removed,
  });
}
