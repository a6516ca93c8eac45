/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { userSchema } from './user';
import { circleSchema } from './circle';
import { membershipSchema } from './lists';
import { fillKey } from './keys';

fillKey(userSchema);
fillKey(circleSchema);

function build(conn: Connection) {
  return {
    User: conn.model('User', userSchema),
    Circle: conn.model('Circle', circleSchema),
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
export type { MembershipDoc } from './lists';
