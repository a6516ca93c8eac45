/**
 * The wire shapes the app reads, from the OpenAPI document (GET /openapi.json): schema.d.ts is
 * generated from it (`npm run api:types`; `npm run check` fails when it is stale). Each object
 * is a subset of what the server sends: the fields screens show. Only the generic envelopes
 * below are written here, as the document spells each collection out per route.
 */
import type { components } from './schema';

type Schemas = components['schemas'];

/** The collection envelope of spec 1.5 (`collectionOf` in libs/common/src/openapi). */
export interface Collection<T> {
  type: 'OrderedCollection' | 'OrderedCollectionPage';
  totalItems: number;
  orderedItems: T[];
  totalPages?: number;
  currentPage?: number;
}

/** A circle timeline page (`timelineOf`). */
export interface Timeline<T> extends Collection<T> {
  nextCursor?: string;
}

/** POST /outbox's answer, with the created object's type. */
export interface OutboxResult<T = Record<string, unknown>> {
  ok: true;
  activity: Record<string, unknown>;
  result: T & { id: string };
  createdId?: string;
}

export type Profile = Schemas['Profile'];
export type SessionUser = Schemas['SessionUser'];
export type ServerConfig = Schemas['ServerConfig'];
export type Author = Schemas['Author'];
export type Post = Schemas['Post'];
export type Reply = Schemas['Reply'];
export type React = Schemas['React'];
export type Member = Schemas['Member'];
export type Circle = Schemas['Circle'];
export type Group = Schemas['Group'];
export type Page = Schemas['Page'];
export type Bookmark = Schemas['Bookmark'];
export type UserDetail = Schemas['UserDetail'];
export type Notification = Schemas['Notification'];
export type Flag = Schemas['Flag'];
/** A known server as GET /admin/servers lists it. */
export type KnownServer = Schemas['KnownServer'];
export type AdminUser = Schemas['AdminUser'];
export type Setting = Schemas['Setting'];
export type Invite = Schemas['Invite'];
export type SystemStats = Schemas['SystemStats'];
export type BackupJob = Schemas['BackupJob'];
export type Recommendation = Schemas['Recommendation'];
export type Section = Schemas['Section'];
/** A Discover card (docs/admin.md, GET /recommendations). */
export type DiscoverCard = Schemas['DiscoverCard'];
/** A Discover shelf: an active section with its live cards. */
export type DiscoverShelf = Schemas['DiscoverShelf'];
export type UploadedFile = Schemas['UploadedFile'];
