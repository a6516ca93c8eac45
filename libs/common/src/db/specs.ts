/**
 * Every collection the stores keep through the engine port (ADR 0013), with its indexes: what
 * `Repositories.prepare` ensures at start, and what a backup archives. A store that moves onto
 * the port adds its spec here.
 */
import type { CollectionSpec } from './engine/port';
import { ACTIVITIES, EVENT_OUTBOX } from './repositories/activities';
import { REMOTE_FOLLOWERS } from './repositories/federation-state';
import { NOTIFICATIONS } from './repositories/notifications';
import { REMOTE_SERVERS } from './repositories/remote-servers';

export const STORE_SPECS: readonly CollectionSpec[] = [
  REMOTE_SERVERS,
  NOTIFICATIONS,
  REMOTE_FOLLOWERS,
  ACTIVITIES,
  EVENT_OUTBOX,
];
