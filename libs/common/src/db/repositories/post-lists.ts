/**
 * The shapes and list keys of posts that the post and timeline stores share: which lists a post
 * goes to (LISTS), the tags it is counted under, and its entry in a list.
 */
import type { PostDoc } from '../models';
import type { ListAppend, ListEntry } from '../lists/store';

export type PostRecord = PostDoc & { id: string; createdAt?: Date; updatedAt?: Date };
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

/** What PostsStore needs of the circle timelines (TimelineStore). */
export interface Timelines {
  /** Appends an existing post to its author's circles' timelines; the circles. */
  fanOut(p: PostRecord): Promise<string[]>;
  /** The circles a new post of this author goes to. */
  circlesFor(actorId: string): Promise<string[]>;
  /** The timeline appends of a post to these circles. */
  appendsFor(p: PostRecord, circles: string[]): ListAppend[];
}

export interface LocalPostFilter {
  tiers: Array<'public' | 'server'>;
  types?: string[];
  since?: Date;
}
