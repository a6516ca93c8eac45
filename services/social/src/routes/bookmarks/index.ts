import { NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { lookup, parseMode } from '../../views/lookup';
import { BOOKMARK_ID, findVisibleBookmark } from '../../access/bookmarks';
import { BOOKMARK_LIST_FIELDS, bookmarkTypeParam } from '../../views/bookmarks';

/** /bookmarks (behaviour-notes §3.10). Bookmarks are local only and never federate. */
export default function bookmarkRoutes(ctx: SocialContext): Router {
  const r = Router();

  // Every user's root items the viewer may see (items inside folders are reached through them).
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const type = bookmarkTypeParam(query.type);
      const paging = parsePaging(query);
      const { total, items } = await ctx.stores.bookmarks.pageRootsVisibleTo(
        viewer,
        type,
        paging,
        BOOKMARK_LIST_FIELDS,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  // Spec 1.8 lookup, with the folder-chain check first: invisible is answered as missing.
  r.get(
    '/:id',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const mode = parseMode(query.mode);
      const id = params.id!;
      if (!BOOKMARK_ID.test(id)) throw new NotFound('Not found');
      if (!id.endsWith(`@${ctx.config.DOMAIN}`)) {
        // A remote bookmark: the shared lookup decides (400 for remote modes until federation).
        await lookup(ctx, viewer, id, mode);
        throw new NotFound('Not found');
      }
      const doc = await findVisibleBookmark(ctx, viewer, id);
      if (!doc) throw new NotFound('Not found');
      const { _id, __v, ...item } = doc as typeof doc & { _id?: unknown; __v?: unknown };
      void _id;
      void __v;
      set('item', item);
    }),
  );
  return r;
}
