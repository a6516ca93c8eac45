/**
 * What the notifications service's routes and event consumer receive (docs/architecture.md,
 * contexts). Only the wiring sees `Runtime`.
 */
import type { Config } from '@agora/common/config';
import { pickStores, type Repositories } from '@agora/common/db';
import type { Logger } from '@agora/common/logger';
import type { EventBus } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';

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
] as const satisfies readonly (keyof Repositories)[];

export type NotificationsStores = Pick<Repositories, (typeof NOTIFICATIONS_STORES)[number]>;

export interface NotificationsContext {
  config: Config;
  logger: Logger;
  stores: NotificationsStores;
  /** Events and jobs, typed from the catalogue (messaging/catalogue.ts). */
  events: EventBus;
}

export function createNotificationsContext(rt: Runtime): NotificationsContext {
  return {
    config: rt.config,
    logger: rt.logger,
    stores: pickStores(rt.repos, NOTIFICATIONS_STORES),
    events: rt.events,
  };
}
