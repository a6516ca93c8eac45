/**
 * GET /search (issue 12): candidates come from the index by one equality match on the query's
 * most selective (longest) term, the other terms are checked on the candidates, a first audience
 * filter runs on the entry's copies, and every candidate is then read from its own collection
 * and checked with the same rules as its detail route before it is counted or shown. An item
 * the viewer cannot open is never returned nor counted, even when the index is stale.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import type { SearchEntry, SearchKind } from '@agora/common/db';
import type { SocialContext } from '../context';
import { readableObject } from '../access/objects';
import { suspendedOf } from '../access/suspended';
import { presentUser } from '../users/present';
import type { UserRecord } from '@agora/common/db';

/** Index entries read per query at most, whatever the engine: a common term costs no more. */
export const CANDIDATES = 500;

export interface SearchOptions {
  kinds: SearchKind[];
  /** A post subtype (Note, Article, …) that Post results must have. */
  postType?: string;
}

function audienceOk(e: SearchEntry, viewer: Viewer, domain: string): boolean {
  return canSee({ to: e.to, actorId: e.actorId }, viewer, domain);
}

export async function candidates(ctx: SocialContext, viewer: Viewer, terms: string[], opts: SearchOptions) {
  const main = [...terms].sort((a, b) => b.length - a.length)[0]!;
  const kind = opts.kinds.length === 1 ? opts.kinds[0] : undefined;
  const rows = await ctx.stores.search.withTerm(main, kind, CANDIDATES);
  const domain = ctx.config.DOMAIN;
  return rows.filter(
    (e) =>
      opts.kinds.includes(e.kind) && terms.every((t) => e.terms.includes(t)) && audienceOk(e, viewer, domain),
  );
}

const pick = (doc: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]));

const FIELDS: Record<Exclude<SearchKind, 'User'>, string[]> = {
  Post: [
    'id',
    'type',
    'objectType',
    'title',
    'summary',
    'actorId',
    'actor',
    'to',
    'url',
    'tags',
    'attachments',
    'image',
    'publishedAt',
    'createdAt',
  ],
  Page: [
    'id',
    'type',
    'objectType',
    'title',
    'slug',
    'summary',
    'actorId',
    'to',
    'url',
    'image',
    'createdAt',
  ],
  Group: [
    'id',
    'type',
    'objectType',
    'name',
    'description',
    'icon',
    'image',
    'to',
    'url',
    'memberCount',
    'rsvpPolicy',
    'createdAt',
  ],
  Bookmark: [
    'id',
    'type',
    'objectType',
    'title',
    'summary',
    'href',
    'image',
    'tags',
    'actorId',
    'to',
    'url',
    'createdAt',
  ],
};

/** The item as the viewer may see it, or null when they may not open it (or it is gone). */
export async function openable(
  ctx: SocialContext,
  viewer: Viewer,
  e: SearchEntry,
  opts: SearchOptions,
): Promise<Record<string, unknown> | null> {
  const domain = ctx.config.DOMAIN;
  if (e.kind === 'User') {
    const user = (await ctx.stores.search.source('User', e._id)) as UserRecord | null;
    // An inactive account (suspended, or deleted by its owner) has no profile to find, as its
    // lookup says (views/lookup.ts).
    if (!user || user.active === false || user.deletedAt) return null;
    if (!canSee({ to: user.to ?? '@public', actorId: user.id }, viewer, domain)) return null;
    return { ...presentUser(user, viewer, domain), _searchType: 'User' };
  }
  if (e.kind === 'Post' && /^https?:\/\//.test(e._id)) {
    // A remote post, known by its URL: public ones are all the inbox keeps.
    const doc = await ctx.stores.search.source('Post', e._id);
    if (!doc || !canSee(doc, viewer, domain)) return null;
    // Its author's server suspended the author (ADR 0028): hidden as their other copies are.
    if (await suspendedOf(ctx).anyOf(doc.actorId as string | undefined)) return null;
    if (opts.postType && doc.type !== opts.postType) return null;
    return { ...pick(doc, FIELDS.Post), _searchType: 'Post' };
  }
  let found;
  try {
    found = await readableObject(ctx, viewer, e._id);
  } catch {
    return null;
  }
  if (e.kind === 'Post' && opts.postType && found.doc.type !== opts.postType) return null;
  return { ...pick(found.doc, FIELDS[e.kind]), _searchType: e.kind };
}

/** Candidates verified at once (reads in flight per search). */
const VERIFY_BATCH = 16;

/**
 * Every candidate the viewer may open, in index order. All of them are verified (at most
 * CANDIDATES), not only the page: the collection's `totalItems` and its page boundaries are
 * then those of what the viewer can list, so neither tells about hidden items.
 */
export async function openableAll(
  ctx: SocialContext,
  viewer: Viewer,
  entries: SearchEntry[],
  opts: SearchOptions,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < entries.length; i += VERIFY_BATCH) {
    const batch = entries.slice(i, i + VERIFY_BATCH);
    for (const item of await Promise.all(batch.map((e) => openable(ctx, viewer, e, opts))))
      if (item) out.push(item);
  }
  return out;
}
