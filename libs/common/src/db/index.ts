import { mongo } from 'mongoose';
import type { Database } from './connection';
import { STAMPS, type StampStore } from '../cache/stamps';
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
import { ParkedDeliveriesStore } from './repositories/parked-deliveries';
import { DomainContentRepository } from './repositories/domain-content';
import { STORE_SPECS } from './specs';
import { NotificationsStore } from './repositories/notifications';
import { RecommendationsStore, SectionsStore } from './repositories/curation';
import { IdempotencyRepository } from './repositories/idempotency';
import { BackupJobsRepository } from './repositories/backup-jobs';
import { CollectionsRepository } from './repositories/collections';
import { FilesRepository } from './repositories/files';
import { SearchRepository } from './repositories/search';
import { storeSources } from './repositories/search-sources';
import { LinkPreviewsRepository } from './repositories/link-previews';

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
export { SettingsRepository, SETTINGS, type SettingRecord } from './repositories/settings';
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
  IdempotencyRepository,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IDEMPOTENCY_KEYS,
  requestHash,
  type IdempotencyClaim,
  type IdempotencyRecord,
} from './repositories/idempotency';

export {
  BackupJobsRepository,
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
  CollectionsRepository,
  STAGING_PREFIX,
  RETIRED_PREFIX,
  type RawDocument,
} from './repositories/collections';

/**
 * Extended JSON (relaxed: dates kept as dates, numbers as numbers): the line format of backup
 * archives, the same from either engine. Exported here so no service imports the driver itself.
 */
export const EJSON = mongo.BSON.EJSON;

/** Every store; services receive the ones they use through their context. */
export { AccountContentRepository, type WithdrawnContent } from './repositories/account-content';
export { DomainContentRepository, blockMark } from './repositories/domain-content';

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
  parkedDeliveries: ParkedDeliveriesStore;
  domainContent: DomainContentRepository;
  notifications: NotificationsStore;
  sections: SectionsStore;
  recommendations: RecommendationsStore;
  /**
   * Creates every collection and index the stores declare. Idempotent; run at start by the
   * service that owns the data (social), before it serves, and after a restore.
   */
  prepare(): Promise<void>;
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
  const bump: Bump = hooks.bump ?? (() => Promise.resolve());
  const lists = new ListStore(db.engine);
  const circles = new CirclesRepository(db.engine, domain, hooks.onMembershipChange);
  // A user deleted or restored: their viewer stamp and every circle they are in go stale.
  const users = new UsersRepository(db.engine, domain, async (id) => {
    await bump([STAMPS.viewer(id)]);
    await circles.touchMember(id);
  });
  const posts = new PostsStore(db.engine, lists, users, domain, bump);
  const timelines = new TimelineStore(lists, posts, circles, domain, bump);
  posts.attachTimelines(timelines);
  const files = new FilesRepository(db.engine, domain, publicUrl);
  const reacts = new ReactsStore(db.engine, lists);
  const replies = new RepliesStore(db.engine, lists);
  const pages = new PagesStore(db.engine);
  const bookmarks = new BookmarksStore(db.engine, domain);
  const groups = new GroupsStore(db.engine, domain);
  const search = new SearchRepository(
    db.engine,
    storeSources({ User: users, Post: posts, Page: pages, Group: groups, Bookmark: bookmarks }),
  );
  const repos: Repositories = {
    settings: new SettingsRepository(
      db.engine,
      hooks.readStamps ? { read: hooks.readStamps, bump } : undefined,
    ),
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
    linkPreviews: new LinkPreviewsRepository(db.engine),
    remoteServers: new RemoteServersStore(db.engine),
    parkedDeliveries: new ParkedDeliveriesStore(db.engine),
    domainContent: new DomainContentRepository(posts),
    notifications: new NotificationsStore(db.engine),
    sections: new SectionsStore(db.engine),
    recommendations: new RecommendationsStore(db.engine),
    async prepare() {
      await db.engine.ensure(STORE_SPECS);
    },
    accountContent: new AccountContentRepository({
      posts,
      replies,
      pages,
      bookmarks,
      circles,
      files,
      search,
    }),
    idempotency: new IdempotencyRepository(db.engine),
    backupJobs: new BackupJobsRepository(db.engine),
    collections: new CollectionsRepository(db.engine, STORE_SPECS),
  };
  return repos;
}
export { postgresIdIndexSql } from './engine-indexes';
export {
  FilesRepository,
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
  SearchRepository,
  SEARCH_ENTRIES,
  SEARCH_TERMS,
  SEARCH_KINDS,
  type SearchEntry,
  type SearchKind,
  type SearchSources,
} from './repositories/search';
export { LinkPreviewsRepository, LINK_PREVIEWS, type CachedPreview } from './repositories/link-previews';
export { spawnFerretDB, freePort, waitForPort, type FerretOptions, type FerretProcess } from './ferretdb';
