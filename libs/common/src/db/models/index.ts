/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { settingSchema } from './setting';
import { activitySchema, eventOutboxSchema } from './activity';
import { postSchema, reactIdSchema, reactSchema, replySchema } from './content';
import { bookmarkSchema, flagSchema, groupSchema, pageSchema } from './places';
import { fillKey, followerKey, reactKey } from './keys';
import { notificationGroupSchema, notificationSchema } from './notification';
import { inviteSchema } from './invite';
import { remoteFollowerSchema } from './follower';
import { recommendationSchema, sectionSchema } from './curation';
import { IDEMPOTENCY_TTL_INDEX, idempotencyKeySchema } from './idempotency';
import { migrationSchema } from './migration';
import { backupJobSchema, backupLeaseSchema } from './backup-job';
import { fileSchema, storageUsageSchema } from './file';
import { linkPreviewSchema, searchEntrySchema } from './search';

type Row = Record<string, unknown>;
fillKey(activitySchema);
fillKey(postSchema);
fillKey(replySchema);
fillKey(reactSchema, (d: Row) => reactKey(String(d.target), String(d.actorId)));
fillKey(groupSchema);
fillKey(pageSchema);
fillKey(bookmarkSchema);
fillKey(flagSchema);
fillKey(notificationSchema);
fillKey(inviteSchema);
fillKey(settingSchema, (d: Row) => d.name as string);
fillKey(remoteFollowerSchema, (d: Row) => followerKey(String(d.userId), String(d.actorId)));
fillKey(sectionSchema);
fillKey(recommendationSchema);
fillKey(fileSchema);

function build(conn: Connection) {
  return {
    Setting: conn.model('Setting', settingSchema),
    Activity: conn.model('Activity', activitySchema),
    EventOutbox: conn.model('EventOutbox', eventOutboxSchema),
    Post: conn.model('Post', postSchema),
    Reply: conn.model('Reply', replySchema),
    React: conn.model('React', reactSchema),
    ReactId: conn.model('ReactId', reactIdSchema),
    Group: conn.model('Group', groupSchema),
    Page: conn.model('Page', pageSchema),
    Bookmark: conn.model('Bookmark', bookmarkSchema),
    Flag: conn.model('Flag', flagSchema),
    Notification: conn.model('Notification', notificationSchema),
    NotificationGroup: conn.model('NotificationGroup', notificationGroupSchema),
    Invite: conn.model('Invite', inviteSchema),
    RemoteFollower: conn.model('RemoteFollower', remoteFollowerSchema),
    Section: conn.model('Section', sectionSchema),
    Recommendation: conn.model('Recommendation', recommendationSchema),
    IdempotencyKey: conn.model('IdempotencyKey', idempotencyKeySchema),
    BackupJob: conn.model('BackupJob', backupJobSchema),
    BackupLease: conn.model('BackupLease', backupLeaseSchema),
    File: conn.model('File', fileSchema),
    StorageUsage: conn.model('StorageUsage', storageUsageSchema),
    SearchEntry: conn.model('SearchEntry', searchEntrySchema),
    LinkPreview: conn.model('LinkPreview', linkPreviewSchema),
    Migration: conn.model('Migration', migrationSchema),
  };
}

export type Models = ReturnType<typeof build>;
const cache = new WeakMap<Connection, Models>();

export function registerModels(conn: Connection): Models {
  let m = cache.get(conn);
  if (!m) {
    m = build(conn);
    cache.set(conn, m);
  }
  return m;
}

/** Builds every index (autoIndex also does, lazily; start-up calls this to fail early). */
export async function syncIndexes(models: Models): Promise<void> {
  for (const model of Object.values(models)) await model.createIndexes();
  await ensureTtlIndex(models.IdempotencyKey, IDEMPOTENCY_TTL_INDEX);
}

/** FerretDB 1.24 answers NotImplemented (code 238) to TTL options; its expiry is the GC's job. */
async function ensureTtlIndex(
  model: Models[keyof Models],
  index: { key: Record<string, 1>; options: { name: string; expireAfterSeconds: number } },
): Promise<void> {
  try {
    await model.collection.createIndex(index.key, index.options);
  } catch (err) {
    if ((err as { code?: number }).code !== 238) throw err;
  }
}

export type { SettingDoc } from './setting';
export type { ActivityDoc, EventOutboxDoc } from './activity';
export type { PostDoc, ReplyDoc, ReactDoc } from './content';
export type { GroupDoc, PageDoc, BookmarkDoc, FlagDoc } from './places';
export { reactKey, followerKey } from './keys';
export { RSVP_POLICIES } from './places';
export type { NotificationDoc, NotificationType } from './notification';
export { NOTIFICATION_TYPES } from './notification';
export type { InviteDoc, InviteType } from './invite';
export { INVITE_TYPES } from './invite';
export type { RemoteFollowerDoc } from './follower';
export type { SectionDoc, RecommendationDoc, RefType } from './curation';
export { REF_TYPES } from './curation';
export type { IdempotencyKeyDoc } from './idempotency';
export type { BackupJobDoc, BackupLeaseDoc, BackupJobType, BackupJobStatus } from './backup-job';
export { BACKUP_JOB_TYPES, BACKUP_JOB_STATUSES, BACKUP_OWN_COLLECTIONS } from './backup-job';
export type { FileDoc, StorageUsageDoc } from './file';
export { FILE_KINDS } from './file';
export type { SearchEntryDoc, LinkPreviewDoc } from './search';
export { SEARCH_KINDS } from './search';
