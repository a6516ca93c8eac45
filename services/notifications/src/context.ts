/**
 * What the notifications service's routes and event consumer receive (docs/architecture.md,
 * contexts). Only the wiring sees `Runtime`.
 */
import type { Stores } from '@agora/common/db';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';

const NOTIFICATIONS_STORES = [
  'bookmarks',
  'circles',
  'groups',
  'notifications',
  'pages',
  'posts',
  'reacts',
  'replies',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type NotificationsStores = Pick<Stores, (typeof NOTIFICATIONS_STORES)[number]>;

export type NotificationsContext = BaseContext<NotificationsStores>;

export function createNotificationsContext(rt: Runtime): NotificationsContext {
  return serviceContext(rt, NOTIFICATIONS_STORES, []);
}
