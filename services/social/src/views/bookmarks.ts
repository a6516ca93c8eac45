/**
 * Reading bookmark lists (behaviour-notes §3.10): GET /users/:id/bookmarks and the list fields.
 * Which bookmarks a viewer may read is access/bookmarks.ts.
 */
import type { Viewer } from '@agora/common/audience';
import { BadRequest, NotFound } from '@agora/common/errors';
import { orderedCollection, parsePaging } from '@agora/common/http';
import type { SocialContext } from '../context';
import { findVisibleBookmark } from '../access/bookmarks';

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
