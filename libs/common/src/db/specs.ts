/**
 * Every collection the stores keep through the engine port (ADR 0013), with its indexes: what
 * `Repositories.prepare` ensures at start, and what a backup archives. A store that moves onto
 * the port adds its spec here.
 */
import type { CollectionSpec } from './engine/port';
import { REMOTE_SERVERS } from './repositories/remote-servers';
import { SETTINGS } from './repositories/settings';
import { IDEMPOTENCY_KEYS } from './repositories/idempotency';
import { LINK_PREVIEWS } from './repositories/link-previews';
import { BACKUP_JOBS, BACKUP_LEASE } from './repositories/backup-jobs';

export const STORE_SPECS: readonly CollectionSpec[] = [
  REMOTE_SERVERS,
  SETTINGS,
  IDEMPOTENCY_KEYS,
  LINK_PREVIEWS,
  BACKUP_JOBS,
  BACKUP_LEASE,
];
