/**
 * What the backup worker receives (docs/architecture.md, contexts): its job store, the
 * collections it dumps and restores, storage for the archives. Only the wiring sees `Runtime`.
 */
import type { StampStore } from '@agora/common/cache';
import type { Stores } from '@agora/common/db';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';
import type { ObjectStorage } from '@agora/common/storage';

const BACKUP_STORES = [
  'prepare',
  'backupJobs',
  'circles',
  'collections',
  'settings',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type BackupStores = Pick<Stores, (typeof BACKUP_STORES)[number]>;

export interface BackupContext extends BaseContext<BackupStores> {
  /** The archives. */
  storage: ObjectStorage;
  /** A restore invalidates every read cache. */
  stamps: StampStore;
}

export function createBackupContext(rt: Runtime): BackupContext {
  return serviceContext(rt, BACKUP_STORES, ['storage', 'stamps']);
}
