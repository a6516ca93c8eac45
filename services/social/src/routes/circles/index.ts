import { BadRequest, NotAuthorized } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import { parseBefore } from '@agora/common/db';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { circleForRoute, loadCircle } from '../../access/circles';
import { cachedTimeline, type OwnCircles } from '../../timelines/query';

/** What a list shows of each circle (its key never). */
const LIST_FIELDS = [
  'id',
  'name',
  'summary',
  'icon',
  'to',
  'memberCount',
  'reactCount',
  'actorId',
  'url',
  'type',
  'createdAt',
  'updatedAt',
] as const;

/** /circles (spec 4.2). */
export default function circleRoutes(ctx: SocialContext): Router {
  const r = Router();
  const domain = ctx.config.DOMAIN;

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const paging = parsePaging(query);
      const type =
        typeof query.type === 'string' && /^[A-Za-z]{1,30}$/.test(query.type) ? query.type : 'Circle';
      // Local circles only: cached remote circles carry their originDomain.
      const { total, items } = await ctx.stores.circles.pageListed(
        { type, audiences: viewer.id && viewer.local ? ['@public', `@${domain}`] : ['@public'] },
        paging,
        query.sort === 'reacts' ? 'reacts' : 'createdAt',
        LIST_FIELDS,
      );
      const reacted = viewer.id
        ? new Set(
            (
              await ctx.stores.reacts.mineOn(
                viewer.id,
                items.map((c) => c.id),
              )
            ).keys(),
          )
        : new Set<string>();
      const out = items.map((c) => ({ ...c, userReacted: reacted.has(c.id) }));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, out));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, set }) => {
      const viewer = await viewerOf(ctx, req);
      const { circle, isOwner, isMember } = await circleForRoute(ctx, params.id!, viewer);
      const { _id, __v, ...item } = circle as Record<string, unknown>;
      void _id;
      void __v;
      const userReacted = viewer.id ? !!(await ctx.stores.reacts.mine(viewer.id, circle.id)) : false;
      set('item', { ...item, isOwner, isMember, userReacted });
    }),
  );

  r.get(
    '/:id/members',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const { circle } = await circleForRoute(ctx, params.id!, viewer);
      const paging = parsePaging(query);
      const members = circle.members ?? [];
      const items = members.slice(paging.skip, paging.skip + paging.limit);
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, members.length, items));
    }),
  );

  r.get(
    '/:id/posts',
    handler(
      async ({ req, params, query, set }) => {
        const viewer = await viewerOf(ctx, req);
        const { circle } = await circleForRoute(ctx, params.id!, viewer, { requireUser: true, cached: true });
        // The viewer's record as authentication loaded it (the page needs its system circle ids).
        const user = req.auth?.user;
        const self = user && user.id === viewer.id ? (user.record as OwnCircles) : undefined;
        setAll(set, await cachedTimeline(ctx, viewer, circle, parseTimelineQuery(query), self));
      },
      { requireAuth: false },
    ),
  );

  r.patch(
    '/:id/seen',
    handler(async ({ req, params, body, set }) => {
      const circle = await loadCircle(ctx, params.id!);
      if (circle.actorId !== req.auth!.user!.id)
        throw new NotAuthorized('Only the circle owner can update seen state');
      const when = typeof body.lastSeenAt === 'string' ? new Date(body.lastSeenAt) : new Date(NaN);
      if (Number.isNaN(when.getTime())) throw new BadRequest('lastSeenAt must be a valid ISO date string');
      set('ok', true);
      set('lastSeenAt', await advanceSeen(ctx, circle.id, when));
    }),
  );
  return r;
}

/** Moves the high-water mark forward only (races cannot rewind it). */
async function advanceSeen(ctx: SocialContext, circleId: string, when: Date): Promise<Date> {
  return (await ctx.stores.circles.setLastSeen(circleId, when))!;
}

function parseTimelineQuery(query: Record<string, unknown>) {
  const types =
    typeof query.types === 'string'
      ? query.types
          .split(',')
          .map((t) => t.trim())
          .filter((t) => /^[A-Za-z]{1,30}$/.test(t))
      : [];
  // A cursor (nextCursor) or an ISO time; anything else is a 400 (cursor.ts).
  const before = parseBefore(query.before);
  const limit = Math.min(
    500,
    Math.max(1, Number.parseInt(typeof query.limit === 'string' ? query.limit : '50', 10) || 50),
  );
  return { types, ...(before ? { before } : {}), limit };
}
