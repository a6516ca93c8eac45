/**
 * What the admin service's routes and handlers receive: the stores it administers and nothing
 * else of the runtime (docs/architecture.md, contexts). Only the wiring sees `Runtime`.
 */
import type { TokenService } from '@agora/common/auth';
import type { StampStore } from '@agora/common/cache';
import { databaseStats, type DatabaseStats, type Stores } from '@agora/common/db';
import type { MessageBus } from '@agora/common/messaging';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';
import type { ObjectStorage } from '@agora/common/storage';

const ADMIN_STORES = [
  'accountContent',
  'activities',
  'backupJobs',
  'bookmarks',
  'circles',
  'domainContent',
  'flags',
  'groups',
  'invites',
  'pages',
  'parkedDeliveries',
  'posts',
  'reacts',
  'recommendations',
  'remoteServers',
  'replies',
  'sections',
  'settings',
  'timelines',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type AdminStores = Pick<Stores, (typeof ADMIN_STORES)[number]>;

export interface AdminContext extends BaseContext<AdminStores> {
  /** The raw bus, for publishing the outbox events of admin writes (publishEvents). */
  bus: MessageBus;
  /** Backup archives (download, upload). */
  storage: ObjectStorage;
  stamps: StampStore;
  /** Verifies the admin's token in the guard. */
  tokens: TokenService;
  /** GET /admin/system: the database figures (no connection handed out). */
  databaseStats(): Promise<DatabaseStats>;
}

export function createAdminContext(rt: Runtime): AdminContext {
  const db = rt.db;
  return {
    ...serviceContext(rt, ADMIN_STORES, ['bus', 'storage', 'stamps', 'tokens']),
    databaseStats: () => databaseStats(db),
  };
}
