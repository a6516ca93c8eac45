import type { Database } from './connection';
import { registerModels, type Models } from './models';
import { SettingsRepository } from './repositories/settings';
import { UsersRepository } from './repositories/users';
import { CirclesRepository, type MembershipListener } from './repositories/circles';
import { AccountContentRepository } from './repositories/account-content';

export { connectDatabase, type Database, type ConnectOptions } from './connection';
export {
  registerModels,
  syncIndexes,
  RSVP_POLICIES,
  type Models,
  type PostDoc,
  type ReplyDoc,
  type ReactDoc,
  type GroupDoc,
  type PageDoc,
  type BookmarkDoc,
  type FlagDoc,
  type TimelineEntryDoc,
  type UserDoc,
  type CircleDoc,
  type ActivityDoc,
  NOTIFICATION_TYPES,
  type NotificationDoc,
  type NotificationType,
  INVITE_TYPES,
  type InviteDoc,
  type InviteType,
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
export { UsersRepository, stripSecrets, type UserRecord } from './repositories/users';
export {
  CirclesRepository,
  type CircleRecord,
  type Member,
  type MembershipListener,
} from './repositories/circles';

export { AccountContentRepository, type WithdrawnContent } from './repositories/account-content';

export interface Repositories {
  models: Models;
  accountContent: AccountContentRepository;
  settings: SettingsRepository;
  users: UsersRepository;
  circles: CirclesRepository;
}

export interface RepositoryHooks {
  onMembershipChange?: MembershipListener;
}

export function createRepositories(db: Database, domain: string, hooks: RepositoryHooks = {}): Repositories {
  const models = registerModels(db.conn);
  return {
    models,
    settings: new SettingsRepository(models),
    accountContent: new AccountContentRepository(models),
    users: new UsersRepository(models),
    circles: new CirclesRepository(models, domain, hooks.onMembershipChange),
  };
}
export { spawnFerretDB, freePort, waitForPort, type FerretOptions, type FerretProcess } from './ferretdb';
