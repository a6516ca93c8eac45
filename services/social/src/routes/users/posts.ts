/**
 * GET /users/:id/posts: the author's posts the viewer may read. The author sees all of them;
 * anyone else gets the audience filter (anonymous and remote viewers `@public` only, local users
 * also `@<domain>`, members their circles and groups), so a circle post never reaches a
 * non-member.
 */
import {
  BadRequest,
  collectionFor,
  findPage,
  handler,
  parsePaging,
  setAll,
  visibleFilter,
  type Router,
  type Runtime,
} from '@agora/common';
import { viewerOf } from '../../views/viewer';
import { presentPost } from '../../views/posts';
import { liveUser } from './shared';

const TYPE_RE = /^[A-Za-z]{1,30}$/;

function typesOf(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw new BadRequest('type must be a string');
  const types = raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (!types.length || types.length > 10 || !types.every((t) => TYPE_RE.test(t)))
    throw new BadRequest('type must be a comma-separated list of post types');
  return types;
}

function sinceOf(raw: unknown): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const when = typeof raw === 'string' ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(when.getTime())) throw new BadRequest('since must be a valid ISO date string');
  return when;
}

export function userPostRoutes(r: Router, rt: Runtime): void {
  const domain = rt.config.DOMAIN;
  r.get(
    '/:id/posts',
    handler(async ({ req, params, query, set }) => {
      const author = await liveUser(rt, params.id!);
      const viewer = await viewerOf(rt, req);
      const types = typesOf(query.type);
      const since = sinceOf(query.since);
      const filter: Record<string, unknown> =
        viewer.id === author.id
          ? { actorId: author.id, deletedAt: null }
          : { ...visibleFilter(viewer, domain), actorId: author.id };
      if (types) filter.type = { $in: types };
      if (since) filter.publishedAt = { $gte: since };
      const sort: Record<string, 1 | -1> =
        query.sort === 'top' ? { reactCount: -1, publishedAt: -1 } : { publishedAt: -1 };
      const paging = parsePaging(query);
      const { total, items: posts } = await findPage(rt.repos.models.Post, filter, paging, { sort });
      const items = posts.map((p) => presentPost(p as never, viewer, domain));
      setAll(set, collectionFor(rt.config.publicUrl, req, paging, total, items));
    }),
  );
}
