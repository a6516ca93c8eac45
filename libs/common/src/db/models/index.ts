/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { userSchema } from './user';
import { settingSchema } from './setting';
import { circleSchema } from './circle';
import { postSchema, reactIdSchema, reactSchema, replySchema } from './content';
import { bookmarkSchema, groupSchema, pageSchema } from './places';
import { membershipSchema } from './lists';
import { fillKey, reactKey } from './keys';
import { IDEMPOTENCY_TTL_INDEX, idempotencyKeySchema } from './idempotency';
import { backupJobSchema, backupLeaseSchema } from './backup-job';
import { linkPreviewSchema } from './search';

type Row = Record<string, unknown>;
fillKey(userSchema);
fillKey(circleSchema);
fillKey(postSchema);
fillKey(replySchema);
fillKey(reactSchema, (d: Row) => reactKey(String(d.target), String(d.actorId)));
fillKey(groupSchema);
fillKey(pageSchema);
fillKey(bookmarkSchema);
fillKey(settingSchema, (d: Row) => d.name as string);

function build(conn: Connection) {
  return {
    User: conn.model('User', userSchema),
    Setting: conn.model('Setting', settingSchema),
    Circle: conn.model('Circle', circleSchema),
    Post: conn.model('Post', postSchema),
    Reply: conn.model('Reply', replySchema),
    React: conn.model('React', reactSchema),
    ReactId: conn.model('ReactId', reactIdSchema),
    Group: conn.model('Group', groupSchema),
    Page: conn.model('Page', pageSchema),
    Bookmark: conn.model('Bookmark', bookmarkSchema),
    Membership: conn.model('Membership', membershipSchema),
    IdempotencyKey: conn.model('IdempotencyKey', idempotencyKeySchema),
    BackupJob: conn.model('BackupJob', backupJobSchema),
    BackupLease: conn.model('BackupLease', backupLeaseSchema),
    LinkPreview: conn.model('LinkPreview', linkPreviewSchema),
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

export type { UserDoc } from './user';
export type { SettingDoc } from './setting';
export type { CircleDoc } from './circle';
export type { PostDoc, ReplyDoc, ReactDoc } from './content';
export type { GroupDoc, PageDoc, BookmarkDoc } from './places';
export type { MembershipDoc } from './lists';
export { reactKey } from './keys';
export { RSVP_POLICIES } from './places';
export type { IdempotencyKeyDoc } from './idempotency';
export type { BackupJobDoc, BackupLeaseDoc, BackupJobType, BackupJobStatus } from './backup-job';
export { BACKUP_JOB_TYPES, BACKUP_JOB_STATUSES, BACKUP_OWN_COLLECTIONS } from './backup-job';
export type { LinkPreviewDoc } from './search';
