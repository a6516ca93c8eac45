import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { fetchRemotePage } from '../../views/remote-page';
import {
  PAGE_LIST_FIELDS,
  assertCanReadPage,
  findPage as findPageDoc,
  publicPagesQuery,
  stringParam,
} from '../../views/pages';

/** /pages (spec 4.3). */
export default function pageRoutes(ctx: SocialContext): Router {
  const r = Router();

  // Only @public pages are ever listed, in the admin's order, then newest first.
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const paging = parsePaging(query);
      const { total, items } = await ctx.stores.pages.pagePublic(
        publicPagesQuery(query),
        paging,
        PAGE_LIST_FIELDS,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, query, set }) => {
      const domain = stringParam(query, 'domain', 253);
      // Another server's page: fetched from it, never stored (views/remote-page.ts).
      if (domain !== undefined && domain.trim().toLowerCase() !== ctx.config.DOMAIN.toLowerCase()) {
        set('item', await fetchRemotePage(ctx, domain, params.id!));
        return;
      }
      const viewer = await viewerOf(ctx, req);
      const page = await findPageDoc(ctx, params.id);
      assertCanReadPage(ctx, viewer, page);
      const { _id, __v, ...item } = page as typeof page & { _id?: unknown; __v?: unknown };
      void _id;
      void __v;
      set('item', item);
    }),
  );
  return r;
}
