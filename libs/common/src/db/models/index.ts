/** Every model, registered once per connection. */
import type { Connection } from 'mongoose';
import { userSchema } from './user';
import { settingSchema } from './setting';
import { circleSchema } from './circle';
import { activitySchema } from './activity';

function build(conn: Connection) {
  return {
    User: conn.model('User', userSchema),
    Setting: conn.model('Setting', settingSchema),
    Circle: conn.model('Circle', circleSchema),
    Activity: conn.model('Activity', activitySchema),
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
export type { SettingDoc } from './setting';
export type { CircleDoc } from './circle';
export type { ActivityDoc } from './activity';
