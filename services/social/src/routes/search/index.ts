/**
 * GET /search?q=&type=&searchIn=&page=&limit= (issue 12): users, posts, pages, groups and
 * bookmarks the viewer may open, matched by word prefixes (`#tag` matches post tags), newest
 * first, as a spec 1.5 collection. `type` is a kind (`posts`, `Post`, …) or a post subtype
 * (`Note`, …); `searchIn` a comma list of kinds, as the reference client sends it.
 */
import { Router } from 'express';
import { BadRequest } from '@agora/common/errors';
import { handler, orderedCollection, parsePaging } from '@agora/common/http';
import type { SearchKind } from '@agora/common/db';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../views/viewer';
import { queryTerms } from '../../search/terms';
import { candidates, openable, type SearchOptions } from '../../search/query';

const KINDS: Record<string, SearchKind> = {
  users: 'User',
  user: 'User',
  posts: 'Post',
  post: 'Post',
  pages: 'Page',
  page: 'Page',
  groups: 'Group',
  group: 'Group',
  bookmarks: 'Bookmark',
  bookmark: 'Bookmark',
};
const ALL: SearchKind[] = ['User', 'Post', 'Page', 'Group', 'Bookmark'];
const POST_TYPES = new Set(['Note', 'Article', 'Media', 'Link', 'Event']);

function options(query: Record<string, unknown>): SearchOptions {
  const { type, searchIn } = query;
  if (type !== undefined && typeof type !== 'string') throw new BadRequest('type: must be a string');
  if (searchIn !== undefined && typeof searchIn !== 'string')
    throw new BadRequest('searchIn: must be a string');
  if (type && POST_TYPES.has(type)) return { kinds: ['Post'], postType: type };
  if (type) {
    const kind = KINDS[type.toLowerCase()];
    if (!kind) throw new BadRequest('type: must be users, posts, pages, groups, bookmarks or a post type');
    return { kinds: [kind] };
  }
  // Unknown names in searchIn are ignored (servers: no server directory here yet).
  const listed = (searchIn ?? '')
    .split(',')
    .map((s) => KINDS[s.trim().toLowerCase()])
    .filter((k): k is SearchKind => !!k);
  return { kinds: listed.length ? [...new Set(listed)] : ALL };
}

export default function searchRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const terms = queryTerms(query.q);
      const opts = options(query);
      const paging = parsePaging(query, { defaultLimit: 20, maxLimit: 50 });
      const viewer = await viewerOf(ctx, req);
      const found = await candidates(ctx, viewer, terms, opts);
      const items: Record<string, unknown>[] = [];
      // Walk past the page start over entries that pass the cheap check; each shown item is verified.
      for (const entry of found.slice(paging.skip)) {
        if (items.length >= paging.limit) break;
        const item = await openable(ctx, viewer, entry, opts);
        if (item) items.push(item);
      }
      const search = new URLSearchParams();
      for (const k of ['q', 'type', 'searchIn', 'limit'])
        if (typeof query[k] === 'string') search.set(k, query[k]);
      const body = orderedCollection({
        base: `${ctx.config.publicUrl}/search`,
        search,
        paging,
        total: found.length,
        items,
      });
      for (const [k, v] of Object.entries(body)) set(k, v);
    }),
  );
  return r;
}
