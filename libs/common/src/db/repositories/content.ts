/**
 * Stores of the other addressable objects: replies, pages, bookmarks, groups. Single objects go
 * by `_id`; the lists here are scans (threads, folders, a user's pages) that no benchmark holds
 * to O(page) yet: each says what it serves.
 */
import { deletedClause, type DeletedMode } from './listing';
import type { BookmarkDoc, GroupDoc, Models, PageDoc, ReplyDoc } from '../models';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';

export type ReplyRecord = ReplyDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type PageRecord = PageDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type BookmarkRecord = BookmarkDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type GroupRecord = GroupDoc & { id: string; createdAt?: Date; updatedAt?: Date };

type Filter = Record<string, unknown>;
type Sort = Record<string, 1 | -1>;
type Fields = Record<string, number>;

export class RepliesStore extends ObjectStore<ReplyRecord> {
  constructor(models: Models) {
    super(models.Reply);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<ReplyRecord> {
    return this.insert(doc);
  }

  /** The actor's same reply to the same parent since `since` (double-submit guard). */
  async recentTwin(
    actorId: string,
    parent: string,
    content: string,
    since: Date,
  ): Promise<ReplyRecord | null> {
    return this.model
      .findOne({ actorId, parent, 'source.content': content, deletedAt: null, createdAt: { $gte: since } })
      .lean<ReplyRecord>();
  }

  /** GET /posts/:id/replies: a thread in order. */
  async pageForThread(target: string, req: PageRequest): Promise<FoundRows<ReplyRecord>> {
    return this.page({ target, deletedAt: null }, req, { createdAt: 1 }, { _id: 0, __v: 0 });
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}

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

  async pageWhere(
    filter: Filter,
    req: PageRequest,
    sort: Sort,
    fields?: Fields,
  ): Promise<FoundRows<PageRecord>> {
    return this.page(filter, req, sort, fields);
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}

export class BookmarksStore extends ObjectStore<BookmarkRecord> {
  constructor(models: Models) {
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

  async pageWhere(
    filter: Filter,
    req: PageRequest,
    sort: Sort,
    fields?: Fields,
  ): Promise<FoundRows<BookmarkRecord>> {
    return this.page(filter, req, sort, fields);
  }
}

export class GroupsStore extends ObjectStore<GroupRecord> {
  constructor(models: Models) {
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

  async pageWhere(
    filter: Filter,
    req: PageRequest,
    sort: Sort,
    fields?: Fields,
  ): Promise<FoundRows<GroupRecord>> {
    return this.page(filter, req, sort, fields);
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}
