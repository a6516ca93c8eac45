/**
 * What the notifications service's routes and event consumer receive (docs/architecture.md,
 * contexts). Only the wiring sees `Runtime`.
 */
import type { Stores } from '@agora/common/db';
import { suspendedAccounts, suspendedSource, type SuspendedAccounts } from '@agora/common/cache';
import { LiveHub } from './live/hub';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';

const NOTIFICATIONS_STORES = [
  'bookmarks',
  'circles',
  'groups',
  'notifications',
  'pages',
  'posts',
  'reacts',
  'remoteSuspensions',
  'replies',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type NotificationsStores = Pick<Stores, (typeof NOTIFICATIONS_STORES)[number]>;

export type NotificationsContext = BaseContext<NotificationsStores> & {
  /** The live streams this process holds (ADR 0020). */
  live: LiveHub;
  /** The suspended accounts, whose notifications no list or count shows meanwhile (ADR 0028). */
  suspended: SuspendedAccounts;
};

export function createNotificationsContext(rt: Runtime): NotificationsContext {
  const live = new LiveHub({
    perUser: rt.config.LIVE_STREAMS_PER_USER,
    heartbeatMs: rt.config.LIVE_HEARTBEAT_SECONDS * 1000,
  });
  const base = serviceContext(rt, NOTIFICATIONS_STORES, []);
  return { ...base, live, suspended: suspendedAccounts(suspendedSource(base.stores), rt.stamps) };
}
