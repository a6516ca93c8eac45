import type { mongo } from 'mongoose';

export {
  connectDatabase,
  openDatabase,
  type Database,
  type ConnectOptions,
  type OpenOptions,
} from './connection';
export {
  mintId,
  userId,
  parseId,
  USERNAME_RE,
  isReservedUsername,
  type ObjectKind,
  type ParsedId,
} from './ids';
export { SettingsStore, SETTINGS, type SettingRecord } from './repositories/settings';
export {
  UsersStore,
  USERS,
  stripSecrets,
  type UserRecord,
  type UserSecrets,
  type StoredUser,
  type NewUser,
  type UserCounter,
  type AccountListener,
} from './repositories/users';
export {
  CirclesStore,
  CIRCLES,
  MEMBERSHIPS,
  type CircleRecord,
  type Member,
  type StoredMember,
  type MembershipRow,
  type MembershipListener,
  type Memberships,
} from './repositories/circles';
/** A unique key already taken (registration of a taken name or address). */
export { DuplicateKeyError } from './engine/port';
export { type PageRequest, type FoundRows } from './repositories/object-collection';
export type { ReactState } from './repositories/object-collection';
export {
  RSVP_POLICIES,
  type PostDoc,
  type ReplyDoc,
  type ReactDoc,
  type GroupDoc,
  type PageDoc,
  type BookmarkDoc,
  type ActorRef,
} from './repositories/content-records';
export { ContentCollection, type Fields } from './repositories/content-collection';
export { ListStore, type ListEntry, type ListHead, type ListAppend } from './lists/store';
export {
  LIST_ENTRIES,
  LIST_COUNTS,
  entryKey,
  type ListEntryRow,
  type ListCountRow,
} from './lists/collections';
export {
  encodeCursor,
  decodeCursor,
  parseBefore,
  newestFirst,
  oldestFirst,
  compareIds,
  type Place,
} from './lists/cursor';
export {
  PostsStore,
  LISTS,
  tierTag,
  POSTS,
  type PostRecord,
  type PullScope,
  type LocalPostFilter,
  type PostLoader,
} from './repositories/posts';
export { TimelineStore, BACKFILL, type TimelinePage } from './repositories/timelines';
export { ReactsStore, reactsList, reactKey, REACTS, type ReactRecord } from './repositories/reacts';
export {
  ActivitiesStore,
  ACTIVITIES,
  EVENT_OUTBOX,
  type ActivityRecord,
  type AdminActivityFilter,
  type InboundState,
  type StoredEvent,
  type PendingEvents,
} from './repositories/activities';
export { RepliesStore, threadList, REPLIES, type ReplyRecord } from './repositories/replies';
export {
  PagesStore,
  BookmarksStore,
  GroupsStore,
  type PageRecord,
  type BookmarkRecord,
  type GroupRecord,
} from './repositories/content';
export { PAGES, BOOKMARKS, GROUPS } from './repositories/content-specs';
export {
  FlagsStore,
  InvitesStore,
  FLAGS,
  INVITES,
  FLAG_STATUSES,
  INVITE_TYPES,
  type FlagReason,
  type FlagRecord,
  type FlagStatus,
  type NewFlag,
  type InviteRecord,
  type InviteType,
  type NewInvite,
} from './repositories/moderation';
export {
  FollowersStore,
  REMOTE_FOLLOWERS,
  followerKey,
  type FollowerRecord,
} from './repositories/federation-state';
export { RemoteServersStore, REMOTE_SERVERS, type RemoteServerRecord } from './repositories/remote-servers';
export {
  RemoteSuspensionsStore,
  REMOTE_SUSPENSIONS,
  type RemoteSuspensionRecord,
} from './repositories/remote-suspensions';
export {
  ParkedDeliveriesStore,
  PARKED_DELIVERIES,
  type ParkedDeliveryRecord,
  type ParkedState,
} from './repositories/parked-deliveries';
export {
  NotificationsStore,
  NOTIFICATIONS,
  NOTIFICATION_TYPES,
  type NotificationType,
  type CreateOutcome,
  type GroupRule,
  type NotificationView,
  type NotificationFilter,
  type NewNotification,
} from './repositories/notifications';
export { databaseStats, type DatabaseStats } from './stats';
export { STORE_SPECS } from './specs';
export { ObjectCollection, type ObjectRow } from './repositories/object-collection';
export {
  SectionsStore,
  RecommendationsStore,
  SECTIONS,
  RECOMMENDATIONS,
  REF_TYPES,
  type RefType,
  type SectionRecord,
  type NewSection,
  type RecommendationRecord,
  type NewRecommendation,
  type AdminRecommendationQuery,
  type CurationTarget,
  liveTarget,
} from './repositories/curation';
export { type DeletedMode } from './repositories/listing';
export {
  IdempotencyStore,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IDEMPOTENCY_KEYS,
  requestHash,
  type IdempotencyClaim,
  type IdempotencyRecord,
} from './repositories/idempotency';

export {
  BackupJobsStore,
  newWorkerId,
  BACKUP_JOBS,
  BACKUP_LEASE,
  BACKUP_JOB_TYPES,
  BACKUP_JOB_STATUSES,
  BACKUP_OWN_COLLECTIONS,
  type BackupJobType,
  type BackupJobStatus,
  type BackupJobRecord,
  type BackupProgress,
  type FinishedFields,
} from './repositories/backup-jobs';
export {
  CollectionsStore,
  STAGING_PREFIX,
  RETIRED_PREFIX,
  type RawDocument,
} from './repositories/collections';

/**
 * Extended JSON (relaxed: dates kept as dates, numbers as numbers): the line format of backup
 * archives, the same from either engine. Exported here so no service imports the driver itself;
 * loaded on first use, so a process on SQLite holds the driver only while it backs up or restores.
 */
export type EJSON = typeof mongo.BSON.EJSON;
export async function loadEJSON(): Promise<EJSON> {
  return (await import('mongoose')).default.mongo.BSON.EJSON;
}

export { AccountContentStore, type WithdrawnContent } from './repositories/account-content';
export { DomainContentStore, blockMark } from './repositories/domain-content';

export { createStores, pickStores, type Stores, type StoreHooks } from './stores';
export { postgresIdIndexSql } from './engine-indexes';
export {
  ALL_MIGRATIONS,
  MIGRATIONS,
  moveListKeys,
  pendingMigrations,
  runMigrations,
  MigrationTimeout,
  type Migration,
  type MigrationLog,
  type MigrationRow,
  type RunOptions,
  type RunReport,
} from './migrations';
export {
  FilesStore,
  FILES,
  STORAGE_USAGE,
  FILE_KINDS,
  publicFile,
  type FileRecord,
  type FileKind,
  type PublicFile,
  type NewFile,
} from './repositories/files';
export {
  SearchStore,
  SEARCH_ENTRIES,
  SEARCH_TERMS,
  SEARCH_KINDS,
  type SearchEntry,
  type SearchKind,
  type SearchSources,
} from './repositories/search';
export { LinkPreviewsStore, LINK_PREVIEWS, type CachedPreview } from './repositories/link-previews';
export {
  ActivityPubStore,
  AP_ACTOR_KEYS,
  AP_FOLLOWS,
  AP_PEERS,
  AP_REMOTE_ACTORS,
  AP_REMOTE_OBJECTS,
  type ActorKeyRecord,
  type ApFollowRecord,
  type FollowState,
  type RemoteActorRecord,
  type SignatureScheme,
} from './repositories/activitypub';
export { spawnFerretDB, freePort, waitForPort, type FerretOptions, type FerretProcess } from './ferretdb';
