import { parseId } from '@agora/common/db';
import { NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { presentUser } from '../../users/present';
import { lookup, parseMode } from '../../views/lookup';
import {
  ACTIVITY_JSON,
  serverActor,
  serverActorDocument,
  userActorDocument,
  wantsActivityJson,
} from './actor';
import { userPostRoutes } from './posts';
import { userCircleRoutes } from './circles';
import { userListRoutes } from './lists';

/** /users (behaviour-notes §3.3, with the reference's leaks and missing clamp fixed). */
export default function userRoutes(ctx: SocialContext): Router {
  const r = Router();
  const domain = ctx.config.DOMAIN;

  // A bare username (no '@') on a read means the local user: /users/alice → @alice@<domain>.
  r.param('id', (req, _res, next, id: unknown) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && typeof id === 'string' && !id.includes('@')) {
      req.params.id = `@${id.toLowerCase()}@${domain}`;
    }
    next();
  });

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const paging = parsePaging(query);
      // Local members only: cached remote users are not people of this server.
      const { total, items: users } = await ctx.stores.users.pageLocalMembers(paging);
      const items = users.map((u) => presentUser(u, viewer, domain));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, res, params, query, set }) => {
      const id = params.id!;
      const ap = wantsActivityJson(req.headers.accept);
      // The answer depends on Accept: caches must keep the two shapes apart.
      res.vary('Accept');
      if (id === `@${domain}`) {
        if (!ap) return set('item', await serverActor(ctx));
        res.type(ACTIVITY_JSON);
        return setAll(set, await serverActorDocument(ctx));
      }
      if (parseId(id).type !== 'User') throw new NotFound('Not found');
      const viewer = await viewerOf(ctx, req);
      if (ap) {
        const user = id.endsWith(`@${domain}`) ? await ctx.stores.users.findActiveById(id) : null;
        if (!user) throw new NotFound('Not found');
        res.type(ACTIVITY_JSON);
        return setAll(set, await userActorDocument(ctx, user, viewer));
      }
      const item = await lookup(ctx, viewer, id, parseMode(query.mode));
      if (!item) throw new NotFound('Not found');
      set('item', item);
    }),
  );

  userPostRoutes(r, ctx);
  userCircleRoutes(r, ctx);
  userListRoutes(r, ctx);
  return r;
}
