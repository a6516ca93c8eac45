/**
 * Every collection the stores keep through the engine port (ADR 0013), with its indexes: what
 * `Stores.prepare` ensures at start, and what a backup archives. A store that moves onto
 * the port adds its spec here.
 */
import type { CollectionSpec } from './engine/port';
import { ACTIVITIES, EVENT_OUTBOX } from './repositories/activities';
import { REMOTE_FOLLOWERS } from './repositories/federation-state';
import { NOTIFICATIONS } from './repositories/notifications';
import { REMOTE_SERVERS } from './repositories/remote-servers';
import { REMOTE_SUSPENSIONS } from './repositories/remote-suspensions';
import { PARKED_DELIVERIES } from './repositories/parked-deliveries';
import { LIST_COUNTS, LIST_ENTRIES } from './lists/collections';
import { MIGRATIONS } from './migrations/migration';
import { SETTINGS } from './repositories/settings';
import { IDEMPOTENCY_KEYS } from './repositories/idempotency';
import { LINK_PREVIEWS } from './repositories/link-previews';
import { BACKUP_JOBS, BACKUP_LEASE } from './repositories/backup-jobs';
import { FLAGS, INVITES } from './repositories/moderation';
import { RECOMMENDATIONS, SECTIONS } from './repositories/curation';
import { FILES, STORAGE_USAGE } from './repositories/files';
import { SEARCH_ENTRIES } from './repositories/search';
import { POSTS } from './repositories/post-lists';
import { REPLIES } from './repositories/replies';
import { REACTS } from './repositories/reacts';
import { BOOKMARKS, GROUPS, PAGES } from './repositories/content-specs';
import { USERS } from './repositories/user-record';
import { CIRCLES, MEMBERSHIPS } from './repositories/circle-record';
import {
  AP_ACTOR_KEYS,
  AP_FOLLOWS,
  AP_PEERS,
  AP_REMOTE_ACTORS,
  AP_REMOTE_OBJECTS,
} from './repositories/activitypub';

export const STORE_SPECS: readonly CollectionSpec[] = [
  REMOTE_SERVERS,
  REMOTE_SUSPENSIONS,
  PARKED_DELIVERIES,
  LIST_ENTRIES,
  LIST_COUNTS,
  NOTIFICATIONS,
  REMOTE_FOLLOWERS,
  ACTIVITIES,
  EVENT_OUTBOX,
  FLAGS,
  INVITES,
  SECTIONS,
  RECOMMENDATIONS,
  FILES,
  STORAGE_USAGE,
  // Not `search_terms`: the search store keeps it only on an engine without a term index (MongoDB),
  // and ensures it there itself (SearchStore.prepare, ADR 0033).
  SEARCH_ENTRIES,
  SETTINGS,
  IDEMPOTENCY_KEYS,
  LINK_PREVIEWS,
  BACKUP_JOBS,
  BACKUP_LEASE,
  POSTS,
  REPLIES,
  REACTS,
  PAGES,
  BOOKMARKS,
  GROUPS,
  USERS,
  CIRCLES,
  MEMBERSHIPS,
  AP_ACTOR_KEYS,
  AP_REMOTE_ACTORS,
  AP_REMOTE_OBJECTS,
  AP_FOLLOWS,
  AP_PEERS,
  MIGRATIONS,
];
