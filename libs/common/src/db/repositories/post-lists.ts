/**
 * The shapes and list keys of posts that the post and timeline stores share: which lists a post
 * goes to (LISTS), the tags it is counted under, and its entry in a list or a circle's timeline.
 */
import type { CollectionSpec } from '../engine/port';
import type { ListAppend, ListEntry } from '../lists/store';
import type { Place } from '../lists/cursor';
import type { PostDoc, Stamped } from './content-records';

export type PostRecord = PostDoc & Stamped;
export type Bump = (stamps: string[]) => Promise<void>;
/** Reads live posts by id (a caller may put a cache in front). */
export type PostLoader = (ids: string[]) => Promise<Map<string, PostRecord>>;

export const LISTS = {
  /** Local posts addressed to `@public`. */
  public: 'posts:public',
  /** Local posts addressed to the server (`@<domain>`). */
  server: 'posts:server',
  author: (id: string) => `author:${id}`,
  circle: (id: string) => `timeline:${id}`,
  /** Posts addressed to a group (GET /groups/:id/posts). */
  group: (id: string) => `group:${id}`,
};

/** The audience tier a list counts a post under. */
export function tierTag(to: string | null | undefined, domain: string): string {
  if (to === '@public') return 'to.public';
  if (to === `@${domain}` || to === '@server') return 'to.server';
  return 'to.other';
}

export const typeTag = (type: string | null | undefined) => `type.${type ?? 'Note'}`;

export function entryOf(p: Pick<PostRecord, 'id' | 'actorId' | 'publishedAt'>): ListEntry {
  const at = p.publishedAt ? new Date(p.publishedAt) : new Date();
  // A remote clock ahead of ours must not pin a post to the top of every list.
  return { id: p.id, at: at.getTime() > Date.now() ? new Date() : at, by: p.actorId };
}

/** A post's entry in the timeline of each of these circles (for ListStore.appendAll). */
export function timelineAppends(
  p: Pick<PostRecord, 'id' | 'actorId' | 'publishedAt' | 'to' | 'type'>,
  circles: readonly string[],
  domain: string,
): ListAppend[] {
  const entries = [entryOf(p)];
  const tags = [tierTag(p.to, domain), typeTag(p.type)];
  return circles.map((c) => ({ key: LISTS.circle(c), entries, tags }));
}

export interface LocalPostFilter {
  tiers: Array<'public' | 'server'>;
  types?: string[];
  since?: Date;
  /** Authors whose posts are skipped (suspended accounts, ADR 0028). */
  exceptAuthors?: ReadonlySet<string>;
}

/**
 * Which posts a pull answers (federation, views/pull.ts): live local posts of `authors` (every
 * local author when absent) addressed to one of `audiences`, published since `since`, strictly
 * older than the place `before`.
 */
export interface PullScope {
  authors?: readonly string[];
  audiences: readonly string[];
  since?: Date;
  before?: Place;
  limit: number;
}

export const POSTS: CollectionSpec = {
  name: 'posts',
  indexes: [
    {
      fields: [
        ['originDomain', 1],
        ['deletedBy', 1],
        ['deletedAt', 1],
      ],
      serves: "copiesFrom: a server's copies, live or hidden by its block (domain blocks)",
    },
    {
      fields: [
        ['actorId', 1],
        ['to', 1],
        ['originDomain', 1],
        ['deletedAt', 1],
        ['publishedAt', -1],
      ],
      serves:
        'a pull of some authors, newest first (PostsStore.pullFor), and their deletions since (deletedFor)',
    },
    {
      fields: [
        ['to', 1],
        ['originDomain', 1],
        ['deletedAt', 1],
        ['publishedAt', -1],
      ],
      serves: 'a pull of every local author (PostsStore.pullFor without authors)',
    },
    {
      fields: [
        ['actorId', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /admin/posts?actorId (newest first); author copies refreshed (refreshAuthorCopy)',
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
      ],
      serves: "an author's live posts (allByAuthor: account deletion)",
    },
    {
      fields: [
        ['actorId', 1],
        ['shareOf', 1],
      ],
      serves: "a user's shares of a post, live or undone (PostsStore.sharesOf: one share per user and post)",
    },
    {
      fields: [
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /admin/posts of live posts; countLive; the GC (deletedAt before a cutoff)',
    },
    { fields: [['createdAt', -1]], serves: 'GET /admin/posts including deleted ones' },
  ],
  dates: ['publishedAt', 'deletedAt', 'createdAt', 'updatedAt', 'event.startDate', 'event.endDate'],
};
