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
import { viewerOf } from '../../access/viewer';
import { queryTerms } from '../../search/terms';
import { candidates, openableAll, type SearchOptions } from '../../search/query';

/**
 * Client spellings of a kind. A Map, not an object literal: a plain object would answer
 * `__proto__`, `constructor` or `toString` with something from Object.prototype, which then
 * reached the index query as a "kind" (docs/security.md, lookups keyed by client input).
 */
const KINDS = new Map<string, SearchKind>([
  ['users', 'User'],
  ['user', 'User'],
  ['posts', 'Post'],
  ['post', 'Post'],
  ['pages', 'Page'],
  ['page', 'Page'],
  ['groups', 'Group'],
  ['group', 'Group'],
  ['bookmarks', 'Bookmark'],
  ['bookmark', 'Bookmark'],
]);
const ALL: SearchKind[] = ['User', 'Post', 'Page', 'Group', 'Bookmark'];
const POST_TYPES = new Set(['Note', 'Article', 'Media', 'Link', 'Event']);
const UNKNOWN_TYPE = `type: must be one of users, posts, pages, groups, bookmarks, ${[...POST_TYPES].join(', ')}`;

function options(query: Record<string, unknown>): SearchOptions {
  const { type, searchIn } = query;
  if (type !== undefined && typeof type !== 'string') throw new BadRequest('type: must be a string');
  if (searchIn !== undefined && typeof searchIn !== 'string')
    throw new BadRequest('searchIn: must be a string');
  if (type && POST_TYPES.has(type)) return { kinds: ['Post'], postType: type };
  if (type) {
    const kind = KINDS.get(type.toLowerCase());
    if (!kind) throw new BadRequest(UNKNOWN_TYPE);
    return { kinds: [kind] };
  }
  // Unknown names in searchIn are ignored (servers: no server directory here yet).
  const listed = (searchIn ?? '')
    .split(',')
    .map((s) => KINDS.get(s.trim().toLowerCase()))
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
      // Every candidate is verified before anything is counted: `totalItems` is what the viewer
      // may open, never the index's count (which would tell about hidden or withdrawn items).
      const found = await openableAll(ctx, viewer, await candidates(ctx, viewer, terms, opts), opts);
      const items = found.slice(paging.skip, paging.skip + paging.limit);
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
