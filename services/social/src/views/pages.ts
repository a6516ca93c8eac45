/**
 * Reading pages (spec 4.3, behaviour-notes §3.9, fixed): the list shows public pages only; a
 * page by id or slug is checked against its audience like any other object (the reference
 * served any page to anyone who knew its slug, §11.1-6).
 */
import { canSee, type Viewer } from '@agora/common/audience';
import type { PageDoc } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';

export type PageRecord = PageDoc & { createdAt?: Date; updatedAt?: Date };

/** Fields of a page in lists (§3.9). */
export const PAGE_LIST_FIELDS = {
  _id: 0,
  id: 1,
  type: 1,
  title: 1,
  slug: 1,
  summary: 1,
  url: 1,
  image: 1,
  tags: 1,
  to: 1,
  parentId: 1,
  order: 1,
  server: 1,
  createdAt: 1,
  updatedAt: 1,
} as const;

const PAGE_ID = /^page:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;
const SLUG = /^[a-z0-9-]{1,120}$/;

/** A string query parameter, or 400 (operator objects from `?tag[$ne]=` never reach a query). */
export function stringParam(query: Record<string, unknown>, name: string, max = 200): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > max) throw new BadRequest(`${name} must be a string`);
  return v;
}

/** What GET /pages narrows its public, live pages to: a tag, a server. */
export function publicPagesQuery(query: Record<string, unknown>): { tag?: string; serverId?: string } {
  const tag = stringParam(query, 'tag', 100);
  const serverId = stringParam(query, 'serverId', 300);
  return { ...(tag ? { tag } : {}), ...(serverId ? { serverId } : {}) };
}

/** A live local page by id or slug; 404 when missing or deleted. */
export async function findPage(ctx: SocialContext, idOrSlug: unknown): Promise<PageRecord> {
  const key = typeof idOrSlug === 'string' ? idOrSlug : '';
  let page: PageRecord | null = null;
  if (PAGE_ID.test(key)) page = await ctx.stores.pages.liveById(key);
  else if (SLUG.test(key)) page = await ctx.stores.pages.localBySlug(key);
  if (!page) throw new NotFound('Page not found');
  return page;
}

/** The page if the viewer may read it; otherwise the same 404 as a missing page (no oracle). */
export function assertCanReadPage(ctx: SocialContext, viewer: Viewer, page: PageRecord): void {
  if (canSee(page, viewer, ctx.config.DOMAIN)) return;
  throw new NotFound('Page not found');
}
