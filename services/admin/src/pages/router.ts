/**
 * /admin/pages (spec 4.3, 4.5): the server's pages. Pages are server content whoever wrote them
 * (only admins may), so every local page is editable here; pages made here are owned by the
 * server actor. Found by id or slug.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest } from '@agora/common/errors';
import { plainText, renderMarkdown, slugify } from '@agora/common/content';
import { domainEvent } from '@agora/common/messaging';
import { idString } from '@agora/common/validation';
import { mintId } from '@agora/common/db';
import type { AuthUser } from '@agora/common/http';
import { crudRouter, type Row } from '../content/crud';
import {
  markdownSource,
  optionalText,
  parse,
  serverActor,
  serverAudience,
  serverCapability,
  tags,
  serverAudiencePatch,
  requirePatchable,
} from '../content/shared';

const listQuery = z.object({ type: z.enum(['Page', 'Folder']).optional(), parentId: idString.optional() });

const fields = {
  type: z.enum(['Page', 'Folder']),
  title: z.string().trim().min(1).max(300),
  slug: z.string().max(200).optional(),
  summary: optionalText(2000),
  source: markdownSource.optional(),
  content: markdownSource.optional(),
  parentId: idString.nullable().optional(),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  image: optionalText(2000).nullable(),
  tags: tags.optional(),
  href: z.url().max(2000).optional(),
};
const createBody = z.object({ ...fields, type: fields.type.default('Page'), order: fields.order.default(0) });
const updateBody = z.object(fields).partial();
const PATCHABLE = [...Object.keys(fields), 'to', 'canReply', 'canReact'];

export function pagesRouter(ctx: AdminContext) {
  const { pages } = ctx.stores;

  const uniqueSlug = (base: string, exceptId?: string) => pages.freeSlug(base, exceptId);

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
      const b = parse(createBody, body);
      const to = serverAudience(ctx, body.to, 'to');
      const canReply = serverCapability(ctx, body.canReply, 'canReply', to);
      const canReact = serverCapability(ctx, body.canReact, 'canReact', to);
      await checkParent(b.parentId);
      const source = b.source ?? b.content ?? '';
      const actor = await serverActor(ctx);
      const id = mintId('page', ctx.config.DOMAIN);
      const slug = await uniqueSlug(slugify(b.slug ?? b.title) || 'page');
      const row = (await pages.create({
        id,
        type: b.type,
        title: b.title,
        slug,
        source: { content: source, mediaType: 'text/markdown' },
        summary: b.summary ?? (source ? plainText(source) : undefined),
        body: renderMarkdown(source),
        parentId: b.parentId ?? null,
        order: b.order,
        tags: b.tags ?? [],
        image: b.image ?? undefined,
        url: b.href ?? `${ctx.config.publicUrl}/pages/${slug}`,
        to,
        canReply,
        canReact,
        actorId: actor.id,
        actor: { id: actor.id, type: actor.type, name: actor.name, server: actor.server },
        server: actor.server,
      })) as unknown as Row;
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
      const b = parse(updateBody, body);
      requirePatchable(body, PATCHABLE);
      await checkParent(b.parentId, String(row.id));
      const { source: src, content, slug, href, ...rest } = b;
      const set: Row = { ...rest };
      const source = src ?? content;
      if (source !== undefined) {
        set.source = { content: source, mediaType: 'text/markdown' };
        set.body = renderMarkdown(source);
        if (b.summary === undefined) set.summary = source ? plainText(source) : '';
      }
      if (slug !== undefined) {
        set.slug = await uniqueSlug(slugify(slug) || 'page', String(row.id));
        if (!href) set.url = `${ctx.config.publicUrl}/pages/${String(set.slug)}`;
      }
      if (href) set.url = href;
      const audience = serverAudiencePatch(ctx, body, String(row.to));
      Object.assign(set, audience.set);
      const to = audience.to;
      const updated = (await pages.set(String(row.id), set)) as unknown as Row;
      const event = domainEvent('page.updated', {
        objectId: String(row.id),
        objectType: 'Page',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: Object.keys(set),
      });
      return { row: updated, to, events: [event] };
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
