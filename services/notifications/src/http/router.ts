/**
 * The notification routes of spec 4.4 and behaviour-notes §3.13, written once and mounted twice:
 * at `/notifications` and at `/users/:id/notifications` (where a guard has already checked that
 * `:id` is the caller). The recipient is always the token's user.
 */
import { NotFound, TooManyRequests, Unauthorized } from '@agora/common/errors';
import {
  Router,
  collectionBase,
  handler,
  orderedCollection,
  parsePaging,
  type HandlerArgs,
} from '@agora/common/http';
import type { NotificationsContext } from '../context';
import type { NotificationView } from '@agora/common/db';
import { isNotificationId, parseTypes, parseUnread } from './inputs';

/** A fresh router per mount, so GET /__routes lists each mount's paths in full. */
export function notificationsRouter(ctx: NotificationsContext): Router {
  const r = Router();
  const store = ctx.stores.notifications;
  const auth = { requireAuth: true };
  const me = (user: HandlerArgs['user']) => user!.id;

  r.get(
    '/',
    handler(async ({ req, query, user, set }) => {
      const types = parseTypes(query.types);
      const unreadOnly = parseUnread(query.unread);
      const paging = parsePaging(query);
      // A suspended account's follows, replies, reactions and mentions are left out (ADR 0028).
      const hidden = await ctx.suspended.ids();
      const { total, items } = await store.pageFor(me(user), { types, unreadOnly }, paging, hidden);
      const body = orderedCollection({
        base: collectionBase(ctx.config.publicUrl, req),
        search: new URLSearchParams(req.url.split('?')[1] ?? ''),
        paging,
        total,
        items,
      });
      for (const [k, v] of Object.entries(body)) set(k, v);
    }, auth),
  );

  // The live stream (ADR 0020): Server-Sent Events, not JSON, so not a `handler`.
  r.get('/stream', (req, res, next) => {
    const user = req.auth?.user;
    if (!user) return next(new Unauthorized());
    if (!ctx.live.open(me(user), req, res))
      return next(new TooManyRequests(`At most ${ctx.config.LIVE_STREAMS_PER_USER} live streams at once`));
  });

  r.get(
    '/unread/count',
    handler(async ({ query, user, set }) => {
      set('count', await store.unreadCount(me(user), parseTypes(query.types), await ctx.suspended.ids()));
    }, auth),
  );

  // Before `/:notifId/...` so `read-all` is never taken for an id.
  r.post(
    '/read-all',
    handler(async ({ query, user, set }) => {
      const updated = await store.readAll(me(user), parseTypes(query.types));
      set('ok', true);
      set('updated', updated);
      // The reference answered `{ count }`; kept so its clients keep working.
      set('count', updated);
    }, auth),
  );

  const change = (apply: (recipientId: string, id: string) => Promise<NotificationView | null>) =>
    handler(async ({ params, user, set }) => {
      const id = params.notifId ?? '';
      const notification = isNotificationId(id) ? await apply(me(user), id) : null;
      if (!notification) throw new NotFound('Notification not found');
      set('ok', true);
      set('notification', notification);
    }, auth);

  r.post(
    '/:notifId/read',
    change((owner, id) => store.setRead(owner, id, true)),
  );
  r.post(
    '/:notifId/unread',
    change((owner, id) => store.setRead(owner, id, false)),
  );
  // Hides it from the list; the read flag is left as it was (§6.4) and there is no un-dismiss.
  r.post(
    '/:notifId/dismiss',
    change((owner, id) => store.dismiss(owner, id)),
  );
  return r;
}
