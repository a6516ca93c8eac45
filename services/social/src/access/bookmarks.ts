/**
 * Who may read a bookmark (behaviour-notes §3.10). A bookmark is visible to its owner always, and
 * to others only when its own audience admits them AND every folder above it exists, is live and
 * admits them too: a bookmark filed in a private folder stays private whatever its own `to`.
 * Invisible and missing are the same answer, so ids do not leak existence.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import type { BookmarkDoc } from '@agora/common/db';
import type { SocialContext } from '../context';

export type BookmarkRecord = BookmarkDoc & { createdAt?: Date; updatedAt?: Date };

/** Folders nest at most this deep (a root folder is level 1). */
export const MAX_FOLDER_DEPTH = 5;

export const BOOKMARK_ID = /^bookmark:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

/**
 * The folders above `doc`, nearest first. Null when the chain is broken: a parent that is
 * missing, deleted or not a folder, a cycle, or more levels than folders may nest.
 */
export async function ancestorsOf(
  ctx: SocialContext,
  doc: Pick<BookmarkRecord, 'id' | 'parentFolder'>,
): Promise<BookmarkRecord[] | null> {
  const chain: BookmarkRecord[] = [];
  const seen = new Set<string>([doc.id]);
  let next = doc.parentFolder ?? null;
  while (next) {
    if (seen.has(next) || chain.length >= MAX_FOLDER_DEPTH) return null;
    seen.add(next);
    const folder = await ctx.stores.bookmarks.byId(next);
    if (!folder || folder.deletedAt || folder.type !== 'Folder') return null;
    chain.push(folder);
    next = folder.parentFolder ?? null;
  }
  return chain;
}

/** Whether the viewer may read the bookmark, checked through the whole folder chain. */
export async function canSeeBookmark(
  ctx: SocialContext,
  viewer: Viewer,
  doc: BookmarkRecord,
): Promise<boolean> {
  if (doc.deletedAt || doc.type === 'Tombstone') return false;
  if (viewer.id && doc.actorId === viewer.id) return true;
  const domain = ctx.config.DOMAIN;
  if (!canSee(doc, viewer, domain)) return false;
  const chain = await ancestorsOf(ctx, doc);
  return chain !== null && chain.every((folder) => canSee(folder, viewer, domain));
}

/** A live bookmark by id if the viewer may read it; null otherwise (missing or invisible). */
export async function findVisibleBookmark(
  ctx: SocialContext,
  viewer: Viewer,
  id: unknown,
): Promise<BookmarkRecord | null> {
  if (typeof id !== 'string' || !BOOKMARK_ID.test(id)) return null;
  const doc = await ctx.stores.bookmarks.liveById(id);
  return doc && (await canSeeBookmark(ctx, viewer, doc)) ? doc : null;
}
