/**
 * What the backup worker receives (docs/architecture.md, contexts): its job store, the
 * collections it dumps and restores, storage for the archives. Only the wiring sees `Runtime`.
 */
import type { StampStore } from '@agora/common/cache';
import type { Config } from '@agora/common/config';
import { pickStores, type Repositories } from '@agora/common/db';
import type { Logger } from '@agora/common/logger';
import type { EventBus } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';
import type { ObjectStorage } from '@agora/common/storage';

const BACKUP_STORES = [
  'prepare',
  'backupJobs',
  'circles',
  'collections',
  'settings',
  'users',
] as const satisfies readonly (keyof Repositories)[];

export type BackupStores = Pick<Repositories, (typeof BACKUP_STORES)[number]>;

export interface BackupContext {
  config: Config;
  logger: Logger;
  stores: BackupStores;
  /** Events and jobs, typed from the catalogue (messaging/catalogue.ts). */
  events: EventBus;
  /** The archives. */
  storage: ObjectStorage;
  /** A restore invalidates every read cache. */
  stamps: StampStore;
}

export function createBackupContext(rt: Runtime): BackupContext {
  return {
    config: rt.config,
    logger: rt.logger,
    stores: pickStores(rt.repos, BACKUP_STORES),
    events: rt.events,
    storage: rt.storage,
    stamps: rt.stamps,
  };
}
