/**
 * Keeps the search index in step with the objects (ADR 0008): every outbox activity, every
 * registration, then the object is read back and its entry rewritten or removed. Indexing never
 * fails the write that triggered it: a failure is logged and the next change of the object (or
 * the start-up backfill of an empty index) fixes the entry.
 */
import { hashtagsOf } from '@agora/common/content';
import { parseId, SEARCH_KINDS, type SearchEntry, type SearchKind } from '@agora/common/db';
import type { SocialContext } from '../context';
import { termsOf } from './terms';

/** A Map: an id's kind is client input (`constructor:x@d` must be no kind, not Object's). */
const KIND_OF = new Map<string, SearchKind>([
  ['post', 'Post'],
  ['page', 'Page'],
  ['group', 'Group'],
  ['bookmark', 'Bookmark'],
]);

export function kindOfId(id: string): SearchKind | null {
  const p = parseId(id);
  if (p.type === 'User') return 'User';
  if (p.type === 'Object' && p.kind) return KIND_OF.get(p.kind) ?? null;
  return null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const content = (doc: Record<string, unknown>) =>
  str((doc.source as { content?: unknown } | undefined)?.content)?.slice(0, 2000);
/** The given tags and the `#hashtags` of the body (the ones its rendering links to a search). */
const tags = (doc: Record<string, unknown>) => [
  ...(Array.isArray(doc.tags) ? doc.tags.map(String) : []),
  ...hashtagsOf(content(doc) ?? ''),
];

export function entryFor(kind: SearchKind, doc: Record<string, unknown>): SearchEntry {
  const profile = (doc.profile ?? {}) as Record<string, unknown>;
  const texts: Record<SearchKind, Array<string | undefined>> = {
    // Only what every viewer of a person sees: the name and handle, never personal fields.
    User: [str(doc.username), str(profile.name)],
    Post: [str(doc.title), str(doc.summary), content(doc)],
    Page: [str(doc.title), str(doc.summary), content(doc)],
    Group: [str(doc.name), str(doc.description)],
    Bookmark: [str(doc.title), str(doc.summary), str(doc.href)],
  };
  const terms = termsOf(texts[kind], kind === 'User' || kind === 'Group' ? [] : tags(doc));
  if (kind === 'User' && typeof doc.username === 'string')
    terms.push(doc.username.toLowerCase().slice(0, 32));
  const at = (doc.publishedAt ?? doc.createdAt ?? new Date()) as Date;
  return {
    _id: String(doc.id),
    kind,
    terms: [...new Set(terms)],
    to: kind === 'User' ? (str(doc.to) ?? '@public') : (str(doc.to) ?? ''),
    actorId: kind === 'User' ? String(doc.id) : (str(doc.actorId) ?? null),
    at,
  };
}

/**
 * `kind` for ids that do not say it (remote posts are known by their URL); `stored` when the
 * caller holds the object as it just wrote it (a create), so it is not read back.
 */
export async function reindex(
  ctx: SocialContext,
  id: unknown,
  kind = typeof id === 'string' ? kindOfId(id) : null,
  stored?: Record<string, unknown>,
) {
  if (typeof id !== 'string') return;
  if (!kind) return;
  const doc = stored ?? (await ctx.stores.search.source(kind, id));
  if (!doc) await ctx.stores.search.remove(id);
  else await ctx.stores.search.upsert(entryFor(kind, doc));
}

export async function reindexQuietly(
  ctx: SocialContext,
  id: unknown,
  kind?: SearchKind,
  stored?: Record<string, unknown>,
): Promise<void> {
  await reindex(ctx, id, kind ?? (typeof id === 'string' ? kindOfId(id) : null), stored).catch((err: Error) =>
    ctx.logger.warn({ err: err.message, id }, 'search index not updated; the next change fixes it'),
  );
}

/** Indexes everything once, when the index is empty (a new install, or one from before search). */
export async function backfillIfEmpty(ctx: SocialContext): Promise<number> {
  if (!(await ctx.stores.search.isEmpty())) return 0;
  let n = 0;
  for (const kind of SEARCH_KINDS)
    for await (const doc of ctx.stores.search.allSources(kind)) {
      if (kind === 'User' && (doc.active === false || String(doc.id).startsWith('@') === false)) continue;
      await ctx.stores.search.upsert(entryFor(kind, doc));
      n++;
    }
  return n;
}
