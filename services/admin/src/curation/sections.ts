/**
 * /admin/sections (spec 4.5): the shelves of the Discover feed, with the shared CRUD shape.
 * A section's `to` is the tier that may see it (public or the server's users); a full delete
 * also removes the section's recommendations (spec 3).
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest } from '@agora/common/errors';
import { slugify } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import { crudRouter, type Row } from '../content/crud';
import { parse, serverAudience } from '../content/shared';

const fields = {
  name: z.string().trim().min(1).max(100),
  summary: z.string().max(2000),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  active: z.boolean(),
};
export const createBody = z.object({
  ...fields,
  summary: fields.summary.default(''),
  order: fields.order.default(0),
  active: fields.active.default(true),
});
export const updateBody = z.object(fields).partial();
const PATCHABLE = ['name', 'summary', 'order', 'active', 'to'];

export function sectionsRouter(ctx: AdminContext) {
  const { sections, recommendations } = ctx.stores;
  return crudRouter(ctx, {
    name: 'section',
    type: 'Section',
    list: (_query, deleted, paging) => sections.pageForAdmin(deleted, paging),
    find: (id) => sections.byId(id),
    async create(body) {
      const b = parse(createBody, body);
      const to = serverAudience(ctx, body.to, 'to');
      const id = mintId('section', ctx.config.DOMAIN);
      const slug = slugify(b.name);
      const row = (await sections.create({
        id,
        ...b,
        slug,
        to,
        actorId: `@${ctx.config.DOMAIN}`,
        server: `@${ctx.config.DOMAIN}`,
        url: `${ctx.config.publicUrl}/recommendations/${slug || id}`,
      })) as unknown as Row;
      return { row, to, events: [] };
    },
    async update(row, body) {
      if (row.deletedAt) throw new BadRequest('id: a deleted section cannot be edited; restore it first');
      const b = parse(updateBody, body);
      if (!Object.keys(body).some((k) => PATCHABLE.includes(k)))
        throw new BadRequest(`body: give at least one of ${PATCHABLE.join(', ')}`);
      const set: Record<string, string | number | boolean> = { ...b };
      if (b.name) set.slug = slugify(b.name);
      if (body.to !== undefined) set.to = serverAudience(ctx, body.to, 'to');
      const updated = (await sections.set(String(row.id), set)) as unknown as Row | null;
      return { row: updated!, to: String(updated?.to ?? row.to), events: [] };
    },
    softDelete: async (id, by) => !!(await sections.softDelete(id, { deletedAt: new Date(), deletedBy: by })),
    restore: async (id) => !!(await sections.restore(id)),
    // A section's recommendations go with it (spec 3).
    async hardDelete(id) {
      await recommendations.removeForSection(id);
      return sections.hardDelete(id);
    },
  });
}
