/**
 * Reading bookmarks (behaviour-notes §3.10). A bookmark is visible to its owner always, and to
 * others only when its own audience admits them AND every folder above it exists, is live and
 * admits them too: a bookmark filed in a private folder stays private whatever its own `to`.
 * Invisible and missing are the same answer (404), so ids do not leak existence.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import type { BookmarkDoc } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import { orderedCollection, parsePaging } from '@agora/common/http';
import type { SocialContext } from '../context';

export type BookmarkRecord = BookmarkDoc & { createdAt?: Date; updatedAt?: Date };

/** Folders nest at most this deep (a root folder is level 1). */
export const MAX_FOLDER_DEPTH = 5;

export const BOOKMARK_ID = /^bookmark:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

/** Fields of a bookmark in lists (§3.10). */
export const BOOKMARK_LIST_FIELDS = {
  _id: 0,
  id: 1,
  type: 1,
  title: 1,
  summary: 1,
  href: 1,
  target: 1,
  image: 1,
  tags: 1,
  to: 1,
  parentFolder: 1,
  actorId: 1,
  url: 1,
  createdAt: 1,
  updatedAt: 1,
} as const;

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

function stringParam(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new BadRequest(`${name} must be a string`);
  return v;
}

/** The `type` filter of bookmark lists: Bookmark, Folder, or both when absent. */
export function bookmarkTypeParam(v: unknown): 'Bookmark' | 'Folder' | undefined {
  if (v === undefined || v === 'Bookmark' || v === 'Folder') return v;
  throw new BadRequest('type must be Bookmark or Folder');
}

/**
 * GET /users/:id/bookmarks (§3.10): `parentFolder` omitted → the owner sees all their items
 * (flat), others root items only; `root` → root items; a folder id → that folder's direct
 * children (the folder must be the owner's and visible to the viewer, else 404). Others see only
 * items whose own audience admits them. Optional `type` (Bookmark or Folder). Returns the spec
 * 1.5 collection body.
 */
export async function listUserBookmarks(
  ctx: SocialContext,
  viewer: Viewer,
  ownerId: string,
  query: Record<string, unknown>,
) {
  const isOwner = viewer.id !== undefined && viewer.id === ownerId;
  const parent = stringParam(query, 'parentFolder');
  const type = bookmarkTypeParam(stringParam(query, 'type'));
  // undefined: every folder (the owner's flat list); null: the root.
  let folderId: string | null | undefined = isOwner ? undefined : null;
  if (parent === 'root') folderId = null;
  else if (parent !== undefined) {
    const folder = await findVisibleBookmark(ctx, viewer, parent);
    if (!folder || folder.type !== 'Folder' || folder.actorId !== ownerId) throw new NotFound('Not found');
    folderId = folder.id;
  }
  const paging = parsePaging(query);
  const { total, items } = await ctx.stores.bookmarks.pageForOwner(
    ownerId,
    folderId,
    { type, viewer },
    paging,
    { ...BOOKMARK_LIST_FIELDS, body: 1 },
  );
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string' && k !== 'page') search.set(k, v);
  return orderedCollection({
    base: `${ctx.config.publicUrl}/users/${ownerId}/bookmarks`,
    search,
    paging,
    total,
    items,
  });
}
