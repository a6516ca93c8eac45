import {
  NotAuthorized,
  Router,
  collectionBase,
  handler,
  orderedCollection,
  parsePaging,
} from '@agora/common';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../views/viewer';
import { presentPost } from '../../views/posts';
import { readableObject } from '../../views/objects';

/** /posts (behaviour-notes §3.6, audience-checked on every route). */
export default function postRoutes({ rt }: SocialContext): Router {
  const r = Router();
  const domain = rt.config.DOMAIN;
  const search = (url: string) => new URLSearchParams(url.split('?')[1] ?? '');

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
      const { Post } = rt.repos.models;
      const [total, posts] = await Promise.all([
        Post.countDocuments(filter),
        Post.find(filter).sort({ publishedAt: -1 }).skip(paging.skip).limit(paging.limit).lean(),
      ]);
      const items = posts.map((p) => presentPost(p as never, viewer, domain));
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
    handler(async ({ req, params, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const mine = viewer.id
        ? await rt.repos.models.React.findOne({ actorId: viewer.id, target: doc.id }, { emoji: 1 }).lean()
        : null;
      for (const [k, v] of Object.entries(presentPost(doc, viewer, domain, { myReact: mine?.emoji ?? null })))
        set(k, v);
    }),
  );

  r.get(
    '/:id/replies',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      const filter = { target: doc.id, deletedAt: null };
      const { Reply } = rt.repos.models;
      const [total, items] = await Promise.all([
        Reply.countDocuments(filter),
        Reply.find(filter, { _id: 0, __v: 0 })
          .sort({ createdAt: 1 })
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
    '/:id/reacts',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(rt, req);
      const { doc } = await readableObject(rt, viewer, params.id!, 'Post not found');
      const paging = parsePaging(query);
      const { React } = rt.repos.models;
      const [total, items] = await Promise.all([
        React.countDocuments({ target: doc.id }),
        React.find({ target: doc.id }, { _id: 0, __v: 0 })
          .sort({ createdAt: -1 })
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
  return r;
}
