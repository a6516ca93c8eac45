/**
 * /users/:id/notifications (behaviour-notes §3.3): the same routes as /notifications, for the
 * caller only. The gateway sends only `/users/<id>/notifications*` here; every other /users
 * route belongs to the social service, so this tree defines nothing else.
 */
import { NotAuthorized, Unauthorized } from '@agora/common/errors';
import { Router } from '@agora/common/http';
import type { NotificationsContext } from '../../context';
import { notificationsRouter } from '../../http/router';
import { pathUserId } from '../../http/inputs';

export default function userNotificationRoutes(ctx: NotificationsContext): Router {
  const r = Router();
  const domain = ctx.config.DOMAIN;
  // Before any route: anonymous → 401, someone else's list → 403 (never a 404 that would
  // tell whether the user exists).
  r.use('/:id/notifications', (req, _res, next) => {
    const user = req.auth?.user;
    if (!user) return next(new Unauthorized());
    const id = typeof req.params.id === 'string' ? pathUserId(req.params.id, domain) : null;
    if (id !== user.id) return next(new NotAuthorized('Access denied'));
    next();
  });
  r.use('/:id/notifications', notificationsRouter(ctx));
  return r;
}
