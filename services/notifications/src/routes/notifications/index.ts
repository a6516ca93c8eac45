import type { Router } from '@agora/common/http';
import type { NotificationsContext } from '../../context';
import { notificationsRouter } from '../../http/router';

/** /notifications (spec 4.4): the caller's own notifications. */
export default function notificationRoutes(ctx: NotificationsContext): Router {
  return notificationsRouter(ctx);
}
export { openapi } from '../openapi';
