/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { userSchema } from './user';
import { circleSchema } from './circle';
import { postSchema, reactIdSchema, reactSchema, replySchema } from './content';
import { bookmarkSchema, groupSchema, pageSchema } from './places';
import { membershipSchema } from './lists';
import { fillKey, reactKey } from './keys';

type Row = Record<string, unknown>;
fillKey(userSchema);
fillKey(circleSchema);
fillKey(postSchema);
fillKey(replySchema);
fillKey(reactSchema, (d: Row) => reactKey(String(d.target), String(d.actorId)));
fillKey(groupSchema);
fillKey(pageSchema);
fillKey(bookmarkSchema);

function build(conn: Connection) {
  return {
    User: conn.model('User', userSchema),
    Circle: conn.model('Circle', circleSchema),
    Post: conn.model('Post', postSchema),
    Reply: conn.model('Reply', replySchema),
    React: conn.model('React', reactSchema),
    ReactId: conn.model('ReactId', reactIdSchema),
    Group: conn.model('Group', groupSchema),
    Page: conn.model('Page', pageSchema),
    Bookmark: conn.model('Bookmark', bookmarkSchema),
    Membership: conn.model('Membership', membershipSchema),
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
export type { PostDoc, ReplyDoc, ReactDoc } from './content';
export type { GroupDoc, PageDoc, BookmarkDoc } from './places';
export type { MembershipDoc } from './lists';
export { reactKey } from './keys';
export { RSVP_POLICIES } from './places';
