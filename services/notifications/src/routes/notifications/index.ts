import type { Router } from '@agora/common/http';
import type { NotificationsContext } from '../../app';
import { notificationsRouter } from '../../http/router';

/** /notifications (spec 4.4): the caller's own notifications. */
export default function notificationRoutes({ rt }: NotificationsContext): Router {
  return notificationsRouter(rt);
}
