import { Unauthorized } from '@agora/common/errors';
import { AS_CONTEXT, Router, handler, routeTreeBodyParsers } from '@agora/common/http';
import { viewerOf } from '../../access/viewer';
import { parsePull, pull } from '../../views/pull';
import type { SocialContext } from '../../context';
import { envelope, runActivity } from '../../activities/pipeline';
import { createKind } from '../../activities/registry';
import { registerViaOutbox } from '../../users/register-activity';

/** POST /outbox: the single write API (decisions.md §4); GET /outbox: pulls (views/pull.ts). */
export default function outboxRoutes(ctx: SocialContext): Router {
  const r = Router();
  // Spec 1.2: the outbox parses again with the route-tree matcher, whatever the mount order.
  r.use(...routeTreeBodyParsers(ctx.config.jsonLimitBytes));
  r.post(
    '/',
    handler(
      async ({ req, body, user, set, setStatus }) => {
        const activity = envelope(body);
        if (activity.type === 'Create' && createKind(activity) === 'User') {
          const out = await registerViaOutbox(ctx, activity);
          setStatus(201);
          for (const [k, v] of Object.entries(out)) set(k, v);
          return;
        }
        if (!user) throw new Unauthorized();
        const key = req.headers['idempotency-key'];
        const out = await runActivity(
          ctx,
          user,
          activity,
          typeof key === 'string' && key.length <= 200 ? { idempotencyKey: key } : {},
        );
        setStatus(out.replayed || out.existing ? 200 : 201);
        set('ok', true);
        set('activity', out.activity);
        set('result', out.result);
        set('createdId', out.createdId);
      },
      { allowUnauth: true },
    ),
  );
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const out = await pull(ctx, viewer, req.auth?.remote?.signerDomain, parsePull(query));
      set('@context', AS_CONTEXT);
      set('type', 'OrderedCollection');
      set('id', `${ctx.config.publicUrl}/outbox`);
      set('totalItems', out.items.length);
      for (const [k, v] of Object.entries(out)) set(k, v);
    }),
  );
  return r;
}
