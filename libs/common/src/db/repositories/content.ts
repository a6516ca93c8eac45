/**
 * Stores of the other addressable objects: pages, bookmarks, groups (replies: replies.ts). Single objects go
 * by `_id`; the lists here are scans (threads, folders, a user's pages) that no benchmark holds
 * to O(page) yet: each says what it serves.
 */
import { deletedClause, type DeletedMode } from './listing';
import type { BookmarkDoc, GroupDoc, Models, PageDoc } from '../models';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';
import { visibleFilter, type Viewer } from '../../audience/viewer';

export type PageRecord = PageDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type BookmarkRecord = BookmarkDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type GroupRecord = GroupDoc & { id: string; createdAt?: Date; updatedAt?: Date };

/** A projection for a list view (which fields each item carries). */
type Fields = Record<string, number>;

export class PagesStore extends ObjectStore<PageRecord> {
  constructor(models: Models) {
    super(models.Page);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<PageRecord> {
    return this.insert(doc);
  }

  /** A live local page by slug. */
  async localBySlug(slug: string): Promise<PageRecord | null> {
    return this.model.findOne({ slug, originDomain: null, deletedAt: null }).lean<PageRecord>();
  }

  /**
   * The first free slug among `base`, `base-2`, `base-3`… for local pages (deleted ones keep
   * theirs: an admin may restore them); `exceptId`'s own slug counts as free. `base` must be
   * slugified already, so it is safe inside the pattern.
   */
  async freeSlug(base: string, exceptId?: string): Promise<string> {
    const taken = await this.slugsLike(new RegExp(`^${base}(-[0-9]+)?$`));
    const own = exceptId ? (await this.byId(exceptId))?.slug : undefined;
    const used = new Set(taken.filter((t) => t !== own));
    if (!used.has(base)) return base;
    let n = 2;
    while (used.has(`${base}-${n}`)) n += 1;
    return `${base}-${n}`;
  }

  /** Local pages whose slug starts with `base` (choosing a free slug). */
  async slugsLike(base: RegExp): Promise<string[]> {
    const rows = await this.model.find({ slug: base, originDomain: null }, { slug: 1 }).lean<PageRecord[]>();
    return rows.map((r) => r.slug);
  }

  /** A local page by slug, deleted or not (the admin API). */
  async anyLocalBySlug(slug: string): Promise<PageRecord | null> {
    return this.model.findOne({ slug, originDomain: null }).lean<PageRecord>();
  }

  /** GET /admin/pages, in menu order (a scan: admin list). */
  async pageForAdmin(
    q: { deleted: DeletedMode; type?: string | undefined; parentId?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<PageRecord>> {
    const filter: Record<string, unknown> = { ...deletedClause(q.deleted), originDomain: null };
    if (q.type) filter.type = q.type;
    if (q.parentId) filter.parentId = q.parentId;
    return this.page(filter, req, { order: 1, createdAt: -1, _id: -1 });
  }

  /** Live local children of a folder. */
  async countChildren(parentId: string): Promise<number> {
    return this.model.countDocuments({ parentId, originDomain: null, deletedAt: null });
  }

  /**
   * GET /pages: `@public` live pages, optionally with a tag or of a server, in the admin's order
   * then newest first (a scan; top-level equality only).
   */
  async pagePublic(
    q: { tag?: string | undefined; serverId?: string | undefined },
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<PageRecord>> {
    return this.page(
      {
        to: '@public',
        deletedAt: null,
        ...(q.tag ? { tags: q.tag } : {}),
        ...(q.serverId ? { server: q.serverId } : {}),
      },
      req,
      { order: 1, createdAt: -1 },
      fields,
    );
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}

/** Which bookmark items a list holds: `Bookmark`, `Folder`, or both when unset. */
export type BookmarkType = 'Bookmark' | 'Folder' | undefined;

export class BookmarksStore extends ObjectStore<BookmarkRecord> {
  constructor(
    models: Models,
    private readonly domain: string,
  ) {
    super(models.Bookmark);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<BookmarkRecord> {
    return this.insert(doc);
  }

  /** Live items directly in a folder of an owner (folder trees). */
  async childrenOf(ownerId: string, folderId: string): Promise<BookmarkRecord[]> {
    return this.findAll({ actorId: ownerId, parentFolder: folderId, deletedAt: null });
  }

  /** Soft-deletes many (a folder's descendants). */
  async tombstoneMany(ids: string[], fields: Record<string, unknown>): Promise<void> {
    for (const id of ids) await this.softDelete(id, fields as Record<string, unknown> & { deletedAt: Date });
  }

  /**
   * GET /bookmarks: every owner's root items the viewer may read, newest first (a scan).
   */
  async pageRootsVisibleTo(
    viewer: Viewer,
    type: BookmarkType,
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<BookmarkRecord>> {
    return this.page(
      { ...visibleFilter(viewer, this.domain), parentFolder: null, ...typeClause(type) },
      req,
      { createdAt: -1 },
      fields,
    );
  }

  /**
   * GET /users/:id/bookmarks: an owner's live items directly in a folder (`null`: the root;
   * `undefined`: in any folder), newest first; the owner sees all of them, anyone else those
   * they may read (a scan of the owner's items).
   */
  async pageForOwner(
    ownerId: string,
    folderId: string | null | undefined,
    q: { type: BookmarkType; viewer: Viewer },
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<BookmarkRecord>> {
    const own = q.viewer.id !== undefined && q.viewer.id === ownerId;
    return this.page(
      {
        ...(own ? {} : visibleFilter(q.viewer, this.domain)),
        actorId: String(ownerId),
        deletedAt: null,
        ...(folderId === undefined ? {} : { parentFolder: folderId }),
        ...typeClause(q.type),
      },
      req,
      { createdAt: -1 },
      fields,
    );
  }
}

function typeClause(type: BookmarkType): Record<string, unknown> {
  return { type: type ?? { $in: ['Bookmark', 'Folder'] } };
}

export class GroupsStore extends ObjectStore<GroupRecord> {
  constructor(
    models: Models,
    private readonly domain: string,
  ) {
    super(models.Group);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<GroupRecord> {
    return this.insert(doc);
  }

  /** GET /admin/groups (a scan: admin list). */
  async pageForAdmin(
    q: { deleted: DeletedMode; rsvpPolicy?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<GroupRecord>> {
    const filter: Record<string, unknown> = { ...deletedClause(q.deleted) };
    if (q.rsvpPolicy) filter.rsvpPolicy = q.rsvpPolicy;
    return this.page(filter, req, { createdAt: -1, _id: -1 });
  }

  async bumpMembers(id: string, by: 1 | -1): Promise<void> {
    await this.bump(id, 'memberCount', by);
  }

  /** GET /groups: local live groups the viewer may read (own ones included), newest first (a scan). */
  async pageLocalVisibleTo(
    viewer: Viewer,
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<GroupRecord>> {
    return this.page(
      { ...visibleFilter(viewer, this.domain), originDomain: null },
      req,
      { createdAt: -1 },
      fields,
    );
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}
