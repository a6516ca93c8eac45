/**
 * What the social service's routes, views, activity handlers, consumers and workers receive:
 * the stores it uses and nothing else of the runtime (docs/architecture.md, contexts). Built
 * once at start by `createSocialContext`; only the wiring (app.ts, main.ts) sees `Runtime`.
 */
import type { TokenService } from '@agora/common/auth';
import type { StampStore } from '@agora/common/cache';
import type { Stores } from '@agora/common/db';
import type { Federation } from '@agora/common/federation';
import type { MessageBus } from '@agora/common/messaging';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';
import type { ObjectStorage } from '@agora/common/storage';

const SOCIAL_STORES = [
  'prepare',
  'accountContent',
  'activities',
  'activityPub',
  'bookmarks',
  'circles',
  'files',
  'flags',
  'followers',
  'groups',
  'idempotency',
  'invites',
  'linkPreviews',
  'pages',
  'posts',
  'reacts',
  'recommendations',
  'remoteServers',
  'remoteSuspensions',
  'replies',
  'sections',
  'search',
  'settings',
  'timelines',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type SocialStores = Pick<Stores, (typeof SOCIAL_STORES)[number]>;

export interface SocialContext extends BaseContext<SocialStores> {
  /** The raw bus, for publishing an activity's recorded outbox events (publishEvents). */
  bus: MessageBus;
  /** Uploaded files. */
  storage: ObjectStorage;
  /** Read-cache stamps (timelines, audiences). */
  stamps: StampStore;
  /** Issues session tokens at login and registration. */
  tokens: TokenService;
  /** Signed fetches of remote objects. */
  federation: Federation;
}

export function createSocialContext(rt: Runtime): SocialContext {
  return serviceContext(rt, SOCIAL_STORES, ['bus', 'storage', 'stamps', 'tokens', 'federation']);
}
