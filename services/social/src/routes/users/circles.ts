/**
 * GET /users/:id/circles: the user's circles of type Circle (system circles never). The owner
 * sees all of them and may ask `?contains=<memberId>` to learn which hold that member; anyone
 * else sees only `@public` circles, plus `@<domain>` ones when they are a user of the owner's
 * server.
 */
import { BadRequest } from '@agora/common/errors';
import { collectionFor, handler, parsePaging, setAll, type Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { liveUser } from './shared';

/** What a list shows of each circle (its key never). */
const FIELDS = ['id', 'name', 'summary', 'icon', 'memberCount', 'to', 'createdAt', 'updatedAt'] as const;
const MEMBER_ID = /^[^$\s{}]{1,300}$/;

export function userCircleRoutes(r: Router, ctx: SocialContext): void {
  r.get(
    '/:id/circles',
    handler(async ({ req, params, query, set }) => {
      const owner = await liveUser(ctx, params.id!);
      const viewer = await viewerOf(ctx, req);
      const isOwner = viewer.id === owner.id;
      // Others read the owner's public circles, and their server's circles when they share it.
      let audiences: string[] | 'all' = 'all';
      if (!isOwner) {
        const ownerDomain = owner.domain ?? ctx.config.DOMAIN;
        const sameServer = !!viewer.id && viewer.id.endsWith(`@${ownerDomain}`);
        audiences = sameServer ? ['@public', `@${ownerDomain}`] : ['@public'];
      }
      let contains: string | undefined;
      // Membership questions are the owner's: others are not told who is in which circle.
      if (isOwner && query.contains !== undefined) {
        if (typeof query.contains !== 'string' || !MEMBER_ID.test(query.contains))
          throw new BadRequest('contains must be a member id');
        contains = query.contains;
      }
      const paging = parsePaging(query);
      const { total, items: circles } = await ctx.stores.circles.pageCirclesOf(
        owner.id,
        audiences,
        paging,
        FIELDS,
      );
      let items: Array<Record<string, unknown>> = circles;
      if (contains !== undefined) {
        const ids = new Set((await ctx.stores.circles.membershipsOf(contains)).circles);
        items = circles.map((c) => ({ ...c, contains: ids.has(c.id) }));
      }
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );
}
