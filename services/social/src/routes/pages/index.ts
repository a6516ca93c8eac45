import { BadRequest, Router, collectionBase, handler, orderedCollection, parsePaging } from '@agora/common';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../views/viewer';
import {
  PAGE_LIST_FIELDS,
  assertCanReadPage,
  findPage,
  publicPagesFilter,
  stringParam,
} from '../../views/pages';

const search = (url: string) => new URLSearchParams(url.split('?')[1] ?? '');

/** /pages (spec 4.3). */
export default function pageRoutes({ rt }: SocialContext): Router {
  const r = Router();

  // Only @public pages are ever listed, in the admin's order, then newest first.
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const filter = publicPagesFilter(query);
      const paging = parsePaging(query);
      const { Page } = rt.repos.models;
      const [total, items] = await Promise.all([
        Page.countDocuments(filter),
        Page.find(filter, PAGE_LIST_FIELDS)
          .sort({ order: 1, createdAt: -1 })
          .skip(paging.skip)
          .limit(paging.limit)
          .lean(),
      ]);
      for (const [k, v] of Object.entries(
        orderedCollection({
          base: collectionBase(rt.config.publicUrl, req),
          search: search(req.url),
          paging,
          total,
          items,
        }),
      ))
        set(k, v);
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, query, set }) => {
      const domain = stringParam(query, 'domain', 253);
      // Remote pages arrive with federation (fetched through the guarded client of decisions §6).
      if (domain !== undefined && domain.toLowerCase() !== rt.config.DOMAIN)
        throw new BadRequest('Remote pages are not supported yet');
      const viewer = await viewerOf(rt, req);
      const page = await findPage(rt, params.id);
      assertCanReadPage(rt, viewer, page);
      const { _id, __v, ...item } = page as typeof page & { _id?: unknown; __v?: unknown };
      void _id;
      void __v;
      set('item', item);
    }),
  );
  return r;
}
