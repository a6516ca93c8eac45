import { NotAuthorized, Router, collectionFor, findPage, handler, parsePaging, setAll } from '@agora/common';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../views/viewer';
import { presentPost } from '../../views/posts';
import { readableObject } from '../../views/objects';

/** /posts (behaviour-notes §3.6, audience-checked on every route). */
export default function postRoutes({ rt }: SocialContext): Router {
  const r = Router();
  const domain = rt.config.DOMAIN;

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(rt, req);
      const local = !!viewer.id && viewer.local;
      let tiers = local ? ['@public', `@${domain}`] : ['@public'];
      if (query.to === 'public') tiers = ['@public'];
      if (query.to === 'server') {
        if (!local) throw new NotAuthorized('Server-only posts are restricted to authenticated local users');
        tiers = [`@${domain}`];
      }
      const filter: Record<string, unknown> = { deletedAt: null, originDomain: null, to: { $in: tiers } };
      if (typeof query.type === 'string') filter.type = { $in: query.type.split(',').slice(0, 10) };
      if (typeof query.since === 'string' && !Number.isNaN(Date.parse(query.since)))
        filter.publishedAt = { $gte: new Date(query.since) };
      const paging = parsePaging(query);
      const { total, items: posts } = await findPage(rt.repos.models.Post, filter, paging, {
        sort: { publishedAt: -1 },
      });
      const items = posts.map((p) => presentPost(p as never, viewer, domain));
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const mine = viewer.id
        ? await rt.repos.models.React.findOne({ actorId: viewer.id, target: doc.id }, { emoji: 1 }).lean()
        : null;
      setAll(set, presentPost(doc, viewer, domain, { myReact: mine?.emoji ?? null }));
    }),
  );

  r.get(
    '/:id/replies',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      const filter = { target: doc.id, deletedAt: null };
      const { total, items } = await findPage(rt.repos.models.Reply, filter, paging, {
        sort: { createdAt: 1 },
        projection: { _id: 0, __v: 0 },
      });
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id/reacts',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      const { total, items } = await findPage(rt.repos.models.React, { target: doc.id }, paging, {
        sort: { createdAt: -1 },
        projection: { _id: 0, __v: 0 },
      });
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items));
    }),
  );
  return r;
}
