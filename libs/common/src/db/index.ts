import type { mongo } from 'mongoose';
import type { Database } from './connection';
import { STAMPS, type StampStore } from '../cache/stamps';
import { SettingsStore } from './repositories/settings';
import { UsersStore } from './repositories/users';
import { CirclesStore, type MembershipListener } from './repositories/circles';
import { ListStore } from './lists/store';
import { PostsStore, type Bump } from './repositories/posts';
import { TimelineStore } from './repositories/timelines';
import { ReactsStore } from './repositories/reacts';
import { ActivitiesStore } from './repositories/activities';
import { BookmarksStore, GroupsStore, PagesStore } from './repositories/content';
import { RepliesStore } from './repositories/replies';
import { FlagsStore, InvitesStore } from './repositories/moderation';
import { FollowersStore } from './repositories/federation-state';
import { AccountContentStore } from './repositories/account-content';
import { RemoteServersStore } from './repositories/remote-servers';
import { RemoteSuspensionsStore } from './repositories/remote-suspensions';
import { ParkedDeliveriesStore } from './repositories/parked-deliveries';
import { DomainContentStore } from './repositories/domain-content';
import { STORE_SPECS } from './specs';
import { ALL_MIGRATIONS, pendingMigrations, runMigrations, type MigrationLog } from './migrations';
import { NotificationsStore } from './repositories/notifications';
import { RecommendationsStore, SectionsStore } from './repositories/curation';
import { IdempotencyStore } from './repositories/idempotency';
import { BackupJobsStore } from './repositories/backup-jobs';
import { CollectionsStore } from './repositories/collections';
import { FilesStore } from './repositories/files';
import { SearchStore } from './repositories/search';
import { storeSources } from './repositories/search-sources';
import { LinkPreviewsStore } from './repositories/link-previews';
import { ActivityPubStore } from './repositories/activitypub';

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

/** Every store; services receive the ones they use through their context. */
export { AccountContentStore, type WithdrawnContent } from './repositories/account-content';
export { DomainContentStore, blockMark } from './repositories/domain-content';

export interface Stores {
  accountContent: AccountContentStore;
  settings: SettingsStore;
  users: UsersStore;
  circles: CirclesStore;
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
  /** Other servers' actors their server suspended (ADR 0028). */
  remoteSuspensions: RemoteSuspensionsStore;
  parkedDeliveries: ParkedDeliveriesStore;
  domainContent: DomainContentStore;
  notifications: NotificationsStore;
  sections: SectionsStore;
  recommendations: RecommendationsStore;
  /**
   * Creates every collection and index the stores declare, then runs the migrations not yet
   * recorded (ADR 0032: once per database, however many processes start at once). Idempotent;
   * run at start by the service that owns the data (social), before it serves, and after a
   * restore (an older archive's data is moved to the current shape).
   */
  prepare(): Promise<void>;
  /**
   * What every other process (admin, federation, notifications, the backup worker) awaits at
   * start, before it reads or writes (ADR 0032, amendment): returns after one read when
   * every migration this code knows is recorded done; otherwise runs `prepare` itself, which
   * runs the pending ones here or waits for the process running them. So no process of a release
   * writes before the migrations that release's code relies on are done, whichever service
   * starts first, and none waits for social to be up.
   */
  ready(): Promise<void>;
  idempotency: IdempotencyStore;
  backupJobs: BackupJobsStore;
  collections: CollectionsStore;
  files: FilesStore;
  search: SearchStore;
  linkPreviews: LinkPreviewsStore;
  /** ActivityPub: actor keys, remote actors by URL and handle, follows, peers' signature format. */
  activityPub: ActivityPubStore;
}

/**
 * The stores a service names, and nothing else: each service's context holds
 * `pickStores(rt.repos, [...])`, typed `Pick<Stores, ...>`, so its type proves which stores
 * its handlers can touch (docs/architecture.md, contexts).
 */
export function pickStores<K extends keyof Stores>(repos: Stores, names: readonly K[]): Pick<Stores, K> {
  const picked: Partial<Pick<Stores, K>> = {};
  for (const name of names) picked[name] = repos[name];
  return picked as Pick<Stores, K>;
}

export interface StoreHooks {
  onMembershipChange?: MembershipListener;
  /** Moves read-cache stamps (every write that changes what a cached view shows calls it). */
  bump?: Bump;
  /**
   * Reads stamps (null when the stamp store cannot answer): the settings cache checks its stamp
   * on every read. Without it settings are cached for FALLBACK_TTL_MS.
   */
  readStamps?: StampStore['read'];
  /** Where `prepare`'s migrations say what they did. */
  log?: MigrationLog;
}

export function createStores(
  db: Database,
  domain: string,
  hooks: StoreHooks = {},
  publicUrl = `https://${domain}`,
): Stores {
  const bump: Bump = hooks.bump ?? (() => Promise.resolve());
  const lists = new ListStore(db.engine);
  const circles = new CirclesStore(db.engine, domain, hooks.onMembershipChange);
  // A user deleted or restored: their viewer stamp, every circle they are in and the set of
  // suspended accounts (every read path hides what they wrote) go stale.
  const users = new UsersStore(db.engine, domain, async (id) => {
    await bump([STAMPS.viewer(id), STAMPS.suspended]);
    await circles.touchMember(id);
  });
  const posts = new PostsStore(db.engine, lists, users, circles, domain, bump);
  const timelines = new TimelineStore(lists, posts, domain, bump);
  const files = new FilesStore(db.engine, domain, publicUrl);
  const reacts = new ReactsStore(db.engine, lists);
  const replies = new RepliesStore(db.engine, lists);
  const pages = new PagesStore(db.engine);
  const bookmarks = new BookmarksStore(db.engine, domain);
  const groups = new GroupsStore(db.engine, domain);
  const search = new SearchStore(
    db.engine,
    storeSources({ User: users, Post: posts, Page: pages, Group: groups, Bookmark: bookmarks }),
  );
  const repos: Stores = {
    settings: new SettingsStore(db.engine, hooks.readStamps ? { read: hooks.readStamps, bump } : undefined),
    users,
    circles,
    lists,
    posts,
    timelines,
    reacts,
    replies,
    pages,
    bookmarks,
    groups,
    activities: new ActivitiesStore(db.engine),
    flags: new FlagsStore(db.engine),
    invites: new InvitesStore(db.engine),
    followers: new FollowersStore(db.engine),
    files,
    search,
    linkPreviews: new LinkPreviewsStore(db.engine),
    activityPub: new ActivityPubStore(db.engine),
    remoteServers: new RemoteServersStore(db.engine),
    remoteSuspensions: new RemoteSuspensionsStore(db.engine),
    parkedDeliveries: new ParkedDeliveriesStore(db.engine),
    domainContent: new DomainContentStore(posts),
    notifications: new NotificationsStore(db.engine),
    sections: new SectionsStore(db.engine),
    recommendations: new RecommendationsStore(db.engine),
    async prepare() {
      await db.engine.ensure(STORE_SPECS);
      await runMigrations(db.engine, ALL_MIGRATIONS, hooks.log ? { log: hooks.log } : {});
      // The search index's term rows follow the engine (ADR 0033).
      const done = await search.prepare();
      if (done) hooks.log?.info({ done }, 'search_terms rebuilt from the entries, or dropped (ADR 0033)');
    },
    async ready() {
      const pending = await pendingMigrations(db.engine, ALL_MIGRATIONS);
      if (!pending.length) return;
      hooks.log?.info(
        { migrations: pending },
        'start waits until the database migrations are done (runs them, or waits for the process that does)',
      );
      await repos.prepare();
    },
    accountContent: new AccountContentStore({
      posts,
      replies,
      pages,
      bookmarks,
      circles,
      files,
      search,
    }),
    idempotency: new IdempotencyStore(db.engine),
    backupJobs: new BackupJobsStore(db.engine),
    collections: new CollectionsStore(db.engine, STORE_SPECS),
  };
  return repos;
}
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
