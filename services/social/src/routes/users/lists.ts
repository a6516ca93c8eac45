/**
 * GET /users/:id/groups, /bookmarks (the views of the groups and library areas, audience-checked
 * there) and /activities: a user's activity log is theirs alone (the reference showed anyone the
 * whole history).
 */
import { NotAuthorized } from '@agora/common/errors';
import { collectionFor, handler, parsePaging, setAll, type Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { listUserGroups } from '../../views/groups';
import { listUserBookmarks } from '../../views/bookmarks';
import { liveUser } from './shared';

const ACTIVITY_FIELDS = ['id', 'type', 'objectType', 'objectId', 'target', 'to', 'createdAt'] as const;

export function userListRoutes(r: Router, ctx: SocialContext): void {
  r.get(
    '/:id/groups',
    handler(async ({ req, params, query, set }) => {
      const owner = await liveUser(ctx, params.id!);
      const viewer = await viewerOf(ctx, req);
      setAll(set, await listUserGroups(ctx, viewer, owner.id, parsePaging(query)));
    }),
  );

  r.get(
    '/:id/bookmarks',
    handler(async ({ req, params, query, set }) => {
      const owner = await liveUser(ctx, params.id!);
      const viewer = await viewerOf(ctx, req);
      setAll(set, await listUserBookmarks(ctx, viewer, owner.id, query));
    }),
  );

  r.get(
    '/:id/activities',
    handler(
      async ({ req, params, query, user, set }) => {
        if (user!.id !== params.id) throw new NotAuthorized('Only the user can read their activity log');
        const paging = parsePaging(query);
        const { total, items } = await ctx.stores.activities.pageForActor(user!.id, paging, ACTIVITY_FIELDS);
        setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
      },
      { requireAuth: true },
    ),
  );
}
