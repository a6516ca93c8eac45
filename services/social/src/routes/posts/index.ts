import { NotAuthorized } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { presentPost } from '../../views/posts';
import { readableObject } from '../../access/objects';
import { parseMode, remotePost } from '../../views/lookup';
import { hiddenAuthors } from '../../access/suspended';
import { counted, countedAll, suspendedShare, tierShare } from '../../access/suspended-counts';

/** /posts (behaviour-notes §3.6, audience-checked on every route). */
export default function postRoutes(ctx: SocialContext): Router {
  const r = Router();
  const domain = ctx.config.DOMAIN;

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const local = !!viewer.id && viewer.local;
      let tiers: Array<'public' | 'server'> = local ? ['public', 'server'] : ['public'];
      if (query.to === 'public') tiers = ['public'];
      if (query.to === 'server') {
        if (!local) throw new NotAuthorized('Server-only posts are restricted to authenticated local users');
        tiers = ['server'];
      }
      const paging = parsePaging(query);
      const types = typeof query.type === 'string' ? query.type.split(',').slice(0, 10) : undefined;
      const since =
        typeof query.since === 'string' && !Number.isNaN(Date.parse(query.since))
          ? new Date(query.since)
          : undefined;
      const { total, items: posts } = await ctx.stores.posts.pageLocal(
        {
          tiers,
          exceptAuthors: await hiddenAuthors(ctx),
          ...(types ? { types } : {}),
          ...(since ? { since } : {}),
        },
        paging,
      );
      // The lists' counters still count the suspended accounts' posts: their share is taken
      // out (ADR 0028). With `since` the total is already a count of what was listed.
      const share = await suspendedShare(ctx);
      const shown = since ? total : Math.max(0, total - tierShare(share, tiers, types));
      const items = posts.map((p) => presentPost(counted(share, p) as never, viewer, domain));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, shown, items));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const remote = await remotePost(ctx, viewer, params.id!, parseMode(query.mode));
      if (remote) return setAll(set, remote);
      const { doc } = await readableObject(ctx, viewer, params.id!, 'Post not found');
      const mine = viewer.id ? await ctx.stores.reacts.mine(viewer.id, doc.id) : null;
      const [shown] = await countedAll(ctx, [doc]);
      setAll(set, presentPost(shown!, viewer, domain, { myReact: mine?.emoji ?? null }));
    }),
  );

  r.get(
    '/:id/replies',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const { doc } = await readableObject(ctx, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      // The suspended accounts' replies are skipped, and their count taken off the total.
      const share = await suspendedShare(ctx);
      const { total, items } = await ctx.stores.replies.pageForThread(
        doc.id,
        paging,
        await hiddenAuthors(ctx),
        share.replies.get(doc.id) ?? 0,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id/reacts',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const { doc } = await readableObject(ctx, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      const share = await suspendedShare(ctx);
      const theirs = [...(share.reacts.get(doc.id)?.values() ?? [])].reduce((n, k) => n + k, 0);
      const { total, items } = await ctx.stores.reacts.pageForTarget(
        doc.id,
        paging,
        await hiddenAuthors(ctx),
        theirs,
      );
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );
  return r;
}
