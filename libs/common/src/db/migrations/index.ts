/**
 * Every migration, in order (ADR 0032). A new one is the next numbered file in this folder,
 * appended here; none is ever edited or removed once merged, since databases record them by id.
 */
import { listKeysItemFirst } from './0001-list-keys-item-first';
import type { Migration } from './migration';

export const ALL_MIGRATIONS: readonly Migration[] = [listKeysItemFirst];

export { moveListKeys } from './0001-list-keys-item-first';
export { MIGRATIONS, type Migration, type MigrationLog, type MigrationRow } from './migration';
export {
  runMigrations,
  pendingMigrations,
  MigrationTimeout,
  type RunOptions,
  type RunReport,
} from './runner';
