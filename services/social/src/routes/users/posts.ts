/**
 * GET /users/:id/posts: the author's posts the viewer may read. The author sees all of them;
 * anyone else gets the audience filter (anonymous and remote viewers `@public` only, local users
 * also `@<domain>`, members their circles and groups), so a circle post never reaches a
 * non-member.
 */
import { canSee } from '@agora/common/audience';
import { BadRequest } from '@agora/common/errors';
import { collectionFor, handler, parsePaging, setAll, type Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { presentPost } from '../../views/posts';
import { countedAll } from '../../access/suspended-counts';
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

export function userPostRoutes(r: Router, ctx: SocialContext): void {
  const domain = ctx.config.DOMAIN;
  r.get(
    '/:id/posts',
    handler(async ({ req, params, query, set }) => {
      const author = await liveUser(ctx, params.id!);
      const viewer = await viewerOf(ctx, req);
      const types = typesOf(query.type);
      const since = sinceOf(query.since);
      const own = viewer.id === author.id;
      const paging = parsePaging(query);
      const readable = (p: { to?: string | null; actorId: string; type?: string | null }) =>
        (own || canSee({ to: p.to, actorId: p.actorId }, viewer, domain)) &&
        (!types || types.includes(p.type ?? 'Note'));
      let page;
      if (query.sort === 'top') {
        page = await ctx.stores.posts.pageTopByAuthor(author.id, readable, {
          ...paging,
          ...(since ? { since } : {}),
        });
      } else {
        // Newest first from the author's list. The total counts the tiers this viewer reads
        // (never posts it cannot see); with filters, exactly the matching posts.
        const local = !!viewer.id && viewer.local;
        page = await ctx.stores.posts.pageByAuthor(
          author.id,
          readable,
          types || since
            ? 'matching'
            : own
              ? ['to.public', 'to.server', 'to.other']
              : local
                ? ['to.public', 'to.server']
                : ['to.public'],
          { ...paging, ...(since ? { since } : {}) },
        );
      }
      const { total, items: posts } = page;
      const items = (await countedAll(ctx, posts)).map((p) => presentPost(p as never, viewer, domain));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );
}
