/**
 * Every store over one database, wired once: services receive the ones they use through their
 * context (`pickStores`); `prepare` and `ready` are the start's schema and migration steps.
 */
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

/** Every store; services receive the ones they use through their context. */
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
