/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { userSchema } from './user';
import { circleSchema } from './circle';
import { activitySchema, eventOutboxSchema } from './activity';
import { postSchema, reactIdSchema, reactSchema, replySchema } from './content';
import { bookmarkSchema, flagSchema, groupSchema, pageSchema } from './places';
import { listBucketSchema, listHeadSchema, membershipSchema } from './lists';
import { fillKey, followerKey, reactKey } from './keys';
import { notificationGroupSchema, notificationSchema } from './notification';
import { inviteSchema } from './invite';
import { remoteFollowerSchema } from './follower';
import { recommendationSchema, sectionSchema } from './curation';
import { migrationSchema } from './migration';
import { fileSchema, storageUsageSchema } from './file';
import { searchEntrySchema } from './search';

type Row = Record<string, unknown>;
fillKey(userSchema);
fillKey(circleSchema);
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
fillKey(remoteFollowerSchema, (d: Row) => followerKey(String(d.userId), String(d.actorId)));
fillKey(sectionSchema);
fillKey(recommendationSchema);
fillKey(fileSchema);

function build(conn: Connection) {
  return {
    User: conn.model('User', userSchema),
    Circle: conn.model('Circle', circleSchema),
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
    ListHead: conn.model('ListHead', listHeadSchema),
    ListBucket: conn.model('ListBucket', listBucketSchema),
    Membership: conn.model('Membership', membershipSchema),
    Notification: conn.model('Notification', notificationSchema),
    NotificationGroup: conn.model('NotificationGroup', notificationGroupSchema),
    Invite: conn.model('Invite', inviteSchema),
    RemoteFollower: conn.model('RemoteFollower', remoteFollowerSchema),
    Section: conn.model('Section', sectionSchema),
    Recommendation: conn.model('Recommendation', recommendationSchema),
    File: conn.model('File', fileSchema),
    StorageUsage: conn.model('StorageUsage', storageUsageSchema),
    SearchEntry: conn.model('SearchEntry', searchEntrySchema),
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
}

export type { UserDoc } from './user';
export type { CircleDoc } from './circle';
export type { ActivityDoc, EventOutboxDoc } from './activity';
export type { PostDoc, ReplyDoc, ReactDoc } from './content';
export type { GroupDoc, PageDoc, BookmarkDoc, FlagDoc } from './places';
export type { ListHeadDoc, ListBucketDoc, MembershipDoc } from './lists';
export { reactKey, followerKey } from './keys';
export { RSVP_POLICIES } from './places';
export type { NotificationDoc, NotificationType } from './notification';
export { NOTIFICATION_TYPES } from './notification';
export type { InviteDoc, InviteType } from './invite';
export { INVITE_TYPES } from './invite';
export type { RemoteFollowerDoc } from './follower';
export type { SectionDoc, RecommendationDoc, RefType } from './curation';
export { REF_TYPES } from './curation';
export type { FileDoc, StorageUsageDoc } from './file';
export { FILE_KINDS } from './file';
export type { SearchEntryDoc } from './search';
export { SEARCH_KINDS } from './search';
