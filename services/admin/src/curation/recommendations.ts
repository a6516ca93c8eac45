/**
 * /admin/recommendations (spec 4.5): what Discover shows. `ref` must name a live local Post,
 * Circle, Group, Bookmark or Page (a user or server: 400) that is not private-tier (400); its
 * tier is recorded in `visibility` (bookkeeping: Discover checks the live target on every read).
 * `section` must name a live section (400).
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { liveTarget, mintId, parseId, type CurationTarget, type RefType } from '@agora/common/db';
import { BadRequest } from '@agora/common/errors';
import { idString } from '@agora/common/validation';
import { crudRouter } from '../content/crud';
import { parse } from '../content/shared';

/** A Map: the kind comes from a client's id (`constructor:x@d` is no kind, not Object's). */
const KINDS = new Map<string, RefType>([
  ['post', 'Post'],
  ['circle', 'Circle'],
  ['group', 'Group'],
  ['bookmark', 'Bookmark'],
  ['page', 'Page'],
]);

const fields = {
  section: idString,
  note: z.string().max(2000),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  active: z.boolean(),
};
export const createBody = z.object({
  ref: idString,
  section: fields.section,
  note: fields.note.default(''),
  order: fields.order.default(0),
});
export const updateBody = z.object(fields).partial();
const PATCHABLE = Object.keys(fields);

export const listQuery = z.object({
  section: idString.optional(),
  refType: z.enum(['Post', 'Circle', 'Group', 'Bookmark', 'Page']).optional(),
});

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * The live target in words (title or name, excerpt, author), so the dashboard shows what is
 * featured and never a bare ref; absent when the target is gone.
 */
export function targetLabel(t: CurationTarget) {
  const actor = (t.actor ?? {}) as Record<string, unknown>;
  const fields = {
    id: t.id,
    type: str(t.type),
    title: str(t.title),
    name: str(t.name),
    summary: str(t.summary) ?? str(t.description),
    slug: str(t.slug),
    actor: t.actorId ? { id: t.actorId, name: str(actor.name) ?? null } : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export function recommendationsRouter(ctx: AdminContext) {
  const { sections, recommendations } = ctx.stores;
  const domain = ctx.config.DOMAIN;

  const liveSection = async (id: string) => {
    const section = await sections.byId(id);
    if (!section || section.deletedAt) throw new BadRequest('section: no such section');
  };

  /** The target's type and tier, or a 400 naming `ref`. */
  const resolveRef = async (ref: string): Promise<{ refType: RefType; visibility: 'public' | 'server' }> => {
    const parsed = parseId(ref);
    if (parsed.type === 'User') throw new BadRequest('ref: users cannot be recommended');
    const refType = parsed.type === 'Object' ? KINDS.get(parsed.kind ?? '') : undefined;
    if (!refType) throw new BadRequest('ref: must be the id of a post, circle, group, bookmark or page');
    const target = await liveTarget(ctx.stores, refType, ref);
    if (!target) throw new BadRequest(`ref: no such ${refType.toLowerCase()} on this server`);
    if (target.to === '@public') return { refType, visibility: 'public' };
    if (target.to === `@${domain}` || target.to === '@server') return { refType, visibility: 'server' };
    throw new BadRequest('ref: a private target cannot be recommended');
  };

  return crudRouter(ctx, {
    name: 'recommendation',
    type: 'Recommendation',
    async list(query, deleted, paging) {
      const q = parse(listQuery, { section: query.section, refType: query.refType }, 'query');
      const page = await recommendations.pageForAdmin(
        { deleted, section: q.section, refType: q.refType },
        paging,
      );
      const items = await Promise.all(
        page.items.map(async (row) => {
          const r = row as Record<string, unknown> & { ref: string; refType: RefType };
          const target = await liveTarget(ctx.stores, r.refType, r.ref);
          return target ? { ...r, target: targetLabel(target) } : r;
        }),
      );
      return { total: page.total, items };
    },
    find: (id) => recommendations.byId(id),
    async create(body, admin) {
      const b = parse(createBody, body);
      const { refType, visibility } = await resolveRef(b.ref);
      await liveSection(b.section);
      const row = (await recommendations.create({
        id: mintId('recommendation', domain),
        server: `@${domain}`,
        ...b,
        refType,
        visibility,
        addedBy: admin.id,
        actorId: `@${domain}`,
      })) as unknown as Record<string, unknown>;
      return { row, events: [] };
    },
    async update(row, body) {
      if (row.deletedAt)
        throw new BadRequest('id: a deleted recommendation cannot be edited; restore it first');
      const b = parse(updateBody, body);
      if (!Object.keys(body).some((k) => PATCHABLE.includes(k)))
        throw new BadRequest(`body: give at least one of ${PATCHABLE.join(', ')}`);
      if (b.section) await liveSection(b.section);
      const updated = (await recommendations.set(String(row.id), b)) as unknown as Record<
        string,
        unknown
      > | null;
      return { row: updated!, events: [] };
    },
    softDelete: async (id, by) =>
      !!(await recommendations.softDelete(id, { deletedAt: new Date(), deletedBy: by })),
    restore: async (id) => !!(await recommendations.restore(id)),
    hardDelete: (id) => recommendations.hardDelete(id),
  });
}
