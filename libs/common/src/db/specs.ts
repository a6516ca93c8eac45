/**
 * Every collection the stores keep through the engine port (ADR 0013), with its indexes: what
 * `Repositories.prepare` ensures at start, and what a backup archives. A store that moves onto
 * the port adds its spec here.
 */
import type { CollectionSpec } from './engine/port';
import { REMOTE_SERVERS } from './repositories/remote-servers';
import { LIST_COUNTS, LIST_ENTRIES } from './lists/collections';
import { USERS } from './repositories/user-record';
import { CIRCLES, MEMBERSHIPS } from './repositories/circle-record';

export const STORE_SPECS: readonly CollectionSpec[] = [
  REMOTE_SERVERS,
  LIST_ENTRIES,
  LIST_COUNTS,
  USERS,
  CIRCLES,
  MEMBERSHIPS,
];
