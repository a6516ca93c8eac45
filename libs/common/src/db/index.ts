import { mongo } from 'mongoose';
import type { Database } from './connection';
import type { Logger } from '../logger';
import { STAMPS, type StampStore } from '../cache/stamps';
import { registerModels, syncIndexes } from './models';
import { SettingsRepository } from './repositories/settings';
import { UsersRepository } from './repositories/users';
import { CirclesRepository, type MembershipListener } from './repositories/circles';
import { ListStore } from './lists/store';
import { PostsStore, type Bump } from './repositories/posts';
import { TimelineStore } from './repositories/timelines';
import { ReactsStore } from './repositories/reacts';
import { ActivitiesStore } from './repositories/activities';
import { BookmarksStore, GroupsStore, PagesStore } from './repositories/content';
import { RepliesStore } from './repositories/replies';
import { FlagsStore, InvitesStore } from './repositories/moderation';
import { FollowersStore } from './repositories/federation-state';
import { AccountContentRepository } from './repositories/account-content';
import { RemoteServersStore } from './repositories/remote-servers';
import { STORE_SPECS } from './specs';
import { NotificationsStore } from './repositories/notifications';
import { migrateFollowerLists, migrateKeys } from './migrate';
import { RecommendationsStore, SectionsStore } from './repositories/curation';
import { IdempotencyRepository } from './repositories/idempotency';
import { BackupJobsRepository } from './repositories/backup-jobs';
import { CollectionsRepository } from './repositories/collections';
import { FilesRepository } from './repositories/files';
import { SearchRepository } from './repositories/search';
import { LinkPreviewsRepository } from './repositories/link-previews';

export { connectDatabase, FERRETDB_WRITE_BATCH, type Database, type ConnectOptions } from './connection';
export {
  registerModels,
  syncIndexes,
  RSVP_POLICIES,
  reactKey,
  followerKey,
  type Models,
  type PostDoc,
  type ReplyDoc,
  type ReactDoc,
  type GroupDoc,
  type PageDoc,
  type BookmarkDoc,
  type FlagDoc,
  type ActivityDoc,
  type FileDoc,
  FILE_KINDS,
  SEARCH_KINDS,
  NOTIFICATION_TYPES,
  type NotificationDoc,
  type NotificationType,
  INVITE_TYPES,
  type InviteDoc,
  type InviteType,
  REF_TYPES,
  type RefType,
  type SectionDoc,
  type RecommendationDoc,
  BACKUP_JOB_TYPES,
  BACKUP_JOB_STATUSES,
  BACKUP_OWN_COLLECTIONS,
  type BackupJobType,
  type BackupJobStatus,
} from './models';
export {
  mintId,
  userId,
  parseId,
  USERNAME_RE,
  isReservedUsername,
  type ObjectKind,
  type ParsedId,
} from './ids';
export { SettingsRepository } from './repositories/settings';
export {
  UsersRepository,
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
  CirclesRepository,
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
export { ObjectStore, type Row, type PageRequest, type FoundRows } from './repositories/objects';
export type { ReactState } from './repositories/react-state';
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
  type PostRecord,
  type LocalPostFilter,
  type PostLoader,
} from './repositories/posts';
export { TimelineStore, BACKFILL, type TimelinePage } from './repositories/timelines';
export { ReactsStore, reactsList, type ReactRecord } from './repositories/reacts';
export {
  ActivitiesStore,
  type ActivityRecord,
  type StoredEvent,
  type PendingEvents,
} from './repositories/activities';
export { RepliesStore, threadList, type ReplyRecord } from './repositories/replies';
export {
  PagesStore,
  BookmarksStore,
  GroupsStore,
  type PageRecord,
  type BookmarkRecord,
  type GroupRecord,
} from './repositories/content';
export { FlagsStore, InvitesStore, type FlagRecord, type InviteRecord } from './repositories/moderation';
export { FollowersStore, followersList, type FollowerRecord } from './repositories/federation-state';
export { RemoteServersStore, REMOTE_SERVERS, type RemoteServerRecord } from './repositories/remote-servers';
export {
  NotificationsStore,
  type NotificationView,
  type NotificationFilter,
  type NewNotification,
} from './repositories/notifications';
export { migrateFollowerLists, migrateKeys, FOLLOWER_LISTS_MIGRATION_ID, MIGRATION_ID } from './migrate';
export { databaseStats, type DatabaseStats } from './stats';
export { STORE_SPECS } from './specs';
export { ObjectCollection, type ObjectRow } from './repositories/object-collection';
export {
  SectionsStore,
  RecommendationsStore,
  type SectionRecord,
  type RecommendationRecord,
  type AdminRecommendationQuery,
  type CurationTarget,
  liveTarget,
} from './repositories/curation';
export { type DeletedMode } from './repositories/listing';
export {
  IdempotencyRepository,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  requestHash,
  type IdempotencyClaim,
} from './repositories/idempotency';

export {
  BackupJobsRepository,
  newWorkerId,
  type BackupJobRecord,
  type BackupProgress,
} from './repositories/backup-jobs';
export {
  CollectionsRepository,
  STAGING_PREFIX,
  RETIRED_PREFIX,
  type IndexSpec,
} from './repositories/collections';

/**
 * MongoDB Extended JSON (canonical mode keeps every BSON type): the line format of backup
 * archives. Exported here so no service imports the driver itself.
 */
export const EJSON = mongo.BSON.EJSON;
export type RawDocument = mongo.Document;

/** Every store; services receive the ones they use through their context. */
export { AccountContentRepository, type WithdrawnContent } from './repositories/account-content';

export interface Repositories {
  accountContent: AccountContentRepository;
  settings: SettingsRepository;
  users: UsersRepository;
  circles: CirclesRepository;
  lists: ListStore;
  posts: PostsStore;
  timelines: TimelineStore;
  reacts: ReactsStore;
  replies: RepliesStore;
  pages: PagesStore;
  bookmarks: BookmarksStore;
  groups: GroupsStore;
  activities: ActivitiesStore;
  flags: FlagsStore;
  invites: InvitesStore;
  followers: FollowersStore;
  remoteServers: RemoteServersStore;
  notifications: NotificationsStore;
  sections: SectionsStore;
  recommendations: RecommendationsStore;
  /**
   * Builds every index and moves data written by an older version to the current shape
   * (string keys, derived lists and indexes). Idempotent; run at start by the service that owns
   * the data (social), before it serves.
   */
  prepare(logger: Logger): Promise<void>;
  idempotency: IdempotencyRepository;
  backupJobs: BackupJobsRepository;
  collections: CollectionsRepository;
  files: FilesRepository;
  search: SearchRepository;
  linkPreviews: LinkPreviewsRepository;
}

/**
 * The stores a service names, and nothing else: each service's context holds
 * `pickStores(rt.repos, [...])`, typed `Pick<Repositories, ...>`, so its type proves which stores
 * its handlers can touch (docs/architecture.md, contexts).
 */
export function pickStores<K extends keyof Repositories>(
  repos: Repositories,
  names: readonly K[],
): Pick<Repositories, K> {
  const picked: Partial<Pick<Repositories, K>> = {};
  for (const name of names) picked[name] = repos[name];
  return picked as Pick<Repositories, K>;
}

export interface RepositoryHooks {
  onMembershipChange?: MembershipListener;
  /** Moves read-cache stamps (every write that changes what a cached view shows calls it). */
  bump?: Bump;
  /**
   * Reads stamps (null when the stamp store cannot answer): the settings cache checks its stamp
   * on every read. Without it settings are cached for FALLBACK_TTL_MS.
   */
  readStamps?: StampStore['read'];
}

export function createRepositories(
  db: Database,
  domain: string,
  hooks: RepositoryHooks = {},
  publicUrl = `https://${domain}`,
): Repositories {
  const models = registerModels(db.conn);
  const bump: Bump = hooks.bump ?? (() => Promise.resolve());
  const lists = new ListStore(db.engine);
  const circles = new CirclesRepository(db.engine, domain, hooks.onMembershipChange);
  // A user deleted or restored: their viewer stamp and every circle they are in go stale.
  const users = new UsersRepository(db.engine, domain, async (id) => {
    await bump([STAMPS.viewer(id)]);
    await circles.touchMember(id);
  });
  const posts = new PostsStore(models, lists, users, domain, bump);
  const timelines = new TimelineStore(lists, posts, circles, domain, bump);
  posts.attachTimelines(timelines);
  const files = new FilesRepository(models, domain, publicUrl);
  const search = new SearchRepository(models, users);
  const repos: Repositories = {
    settings: new SettingsRepository(models, hooks.readStamps ? { read: hooks.readStamps, bump } : undefined),
    users,
    circles,
    lists,
    posts,
    timelines,
    reacts: new ReactsStore(models, lists),
    replies: new RepliesStore(models, lists),
    pages: new PagesStore(models),
    bookmarks: new BookmarksStore(models, domain),
    groups: new GroupsStore(models, domain),
    activities: new ActivitiesStore(models),
    flags: new FlagsStore(models),
    invites: new InvitesStore(models),
    followers: new FollowersStore(models, lists),
    files,
    search,
    linkPreviews: new LinkPreviewsRepository(models),
    remoteServers: new RemoteServersStore(db.engine),
    notifications: new NotificationsStore(models, lists),
    sections: new SectionsStore(models),
    recommendations: new RecommendationsStore(models),
    async prepare(logger: Logger) {
      await db.engine.ensure(STORE_SPECS);
      await syncIndexes(models);
      // The embedded engine's own `_id` indexes, now that every collection exists (ADR 0004);
      // before the migration, whose reads and writes go by `_id`.
      await db.ensureEngineIndexes();
      await migrateKeys(models, logger);
      await migrateFollowerLists(models, repos, logger);
    },
    accountContent: new AccountContentRepository({ posts, circles, files, search }, models),
    idempotency: new IdempotencyRepository(models),
    backupJobs: new BackupJobsRepository(models),
    collections: new CollectionsRepository(db.conn),
  };
  return repos;
}
export {
  ensureSqliteIdIndexes,
  postgresIdIndexSql,
  SQLITE_ID_EXPRESSION,
  type SqliteIndexResult,
} from './engine-indexes';
export { FilesRepository, type FileRecord, type NewFile } from './repositories/files';
export { SearchRepository, type SearchEntry, type SearchKind } from './repositories/search';
export { LinkPreviewsRepository, type CachedPreview } from './repositories/link-previews';
export { spawnFerretDB, freePort, waitForPort, type FerretOptions, type FerretProcess } from './ferretdb';
export { inTurn, serializeWrites, turnOf } from './write-gate';
export { InsertBatch } from './insert-batch';
