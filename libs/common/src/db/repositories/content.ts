/**
 * Stores of pages, bookmarks and groups over the engine port (ADR 0013; replies: replies.ts).
 * Single objects go by `_id`; folder trees read children by an index on the parent field; the
 * lists whose filters no single index serves (an audience, an admin's optional filters, a tag in
 * an array) read an indexed range by keyset and test the rest in memory (`scanPage`): each says
 * which range.
 */
import { canSee, type Viewer } from '../../audience/viewer';
import { DuplicateKeyError, type Engine, type Filter, type Sort } from '../engine/port';
import type { DeletedMode } from './listing';
import type { FoundRows, PageRequest } from './object-collection';
import { ContentCollection, type Fields } from './content-collection';
import { DEFAULTS, type BookmarkDoc, type GroupDoc, type PageDoc, type Stamped } from './content-records';
import { PAGES, BOOKMARKS, GROUPS } from './content-specs';

export type PageRecord = PageDoc & Stamped;
export type BookmarkRecord = BookmarkDoc & Stamped;
export type GroupRecord = GroupDoc & Stamped;
type Keyed<T> = T & { _id: string };

/** Inserts or renames retried when a racing page took the slug just chosen. */
const SLUG_TRIES = 5;

const NEWEST: Sort = [
  ['createdAt', -1],
  ['_id', -1],
];
/** The admin's menu order, then newest first. */
const MENU: Sort = [
  ['order', 1],
  ['createdAt', -1],
  ['_id', -1],
];

/** Whether a document is in the `deleted` mode of an admin list (spec 4.5). */
function inMode(mode: DeletedMode, doc: { deletedAt?: Date | null }): boolean {
  return mode === 'include' || (mode === 'deleted') === !!doc.deletedAt;
}

export class PagesStore extends ContentCollection<Keyed<PageRecord>> {
  constructor(engine: Engine) {
    super(engine, PAGES, DEFAULTS.page);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<PageRecord> {
    return this.insertNew(doc);
  }

  /**
   * A new local page under the first free slug of `base` (freeSlug): `build` makes the page for
   * a slug; when another page took that slug between the read and the insert (the unique
   * index on `slug`), the next free one is tried.
   */
  async createUnderFreeSlug(
    base: string,
    build: (slug: string) => Record<string, unknown> & { id: string },
  ): Promise<PageRecord> {
    for (let tries = 0; ; tries++) {
      const slug = await this.freeSlug(base);
      try {
        return await this.insertNew({ ...build(slug), slug });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError) || tries >= SLUG_TRIES) throw err;
      }
    }
  }

  /**
   * Sets a local page's fields under the first free slug of `base` (freeSlug, its own counting
   * as free); `build` makes the fields for a slug, retried as for a create. Null when missing.
   */
  async setUnderFreeSlug(
    id: string,
    base: string,
    build: (slug: string) => Record<string, unknown>,
  ): Promise<PageRecord | null> {
    for (let tries = 0; ; tries++) {
      const slug = await this.freeSlug(base, id);
      try {
        return await this.set(id, { ...build(slug), slug });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError) || tries >= SLUG_TRIES) throw err;
      }
    }
  }

  /** A live local page by slug. */
  async localBySlug(slug: string): Promise<PageRecord | null> {
    return this.rows.findOne({ originDomain: null, slug, deletedAt: null });
  }

  /**
   * The first free slug among `base`, `base-2`, `base-3`… for local pages (deleted ones keep
   * theirs: an admin may restore them); `exceptId`'s own slug counts as free. `base` must be
   * slugified already.
   */
  async freeSlug(base: string, exceptId?: string): Promise<string> {
    const taken = await this.slugsLike(base);
    const own = exceptId ? (await this.byId(exceptId))?.slug : undefined;
    const used = new Set(taken.filter((t) => t !== own));
    if (!used.has(base)) return base;
    let n = 2;
    while (used.has(`${base}-${n}`)) n += 1;
    return `${base}-${n}`;
  }

  /**
   * Local pages' slugs that are `base` or `base-<n>` (choosing a free slug): the index range of
   * slugs from `base` up to `base.` ('.' follows '-'), the exact shape tested in memory.
   */
  async slugsLike(base: string): Promise<string[]> {
    const rows = await this.rows.find(
      { originDomain: null, slug: { $gte: base, $lt: `${base}.` } },
      { fields: ['slug'] },
    );
    const shape = /^-[0-9]+$/;
    return rows.map((r) => r.slug).filter((s) => s === base || shape.test(s.slice(base.length)));
  }

  /** A local page by slug, deleted or not (the admin API). */
  async anyLocalBySlug(slug: string): Promise<PageRecord | null> {
    return this.rows.findOne({ originDomain: null, slug });
  }

  /** GET /admin/pages, in menu order: local pages, the other filters tested on the way. */
  async pageForAdmin(
    q: { deleted: DeletedMode; type?: string | undefined; parentId?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<PageRecord>> {
    const keep = (p: PageRecord) =>
      inMode(q.deleted, p) && (!q.type || p.type === q.type) && (!q.parentId || p.parentId === q.parentId);
    return this.scanPage({ originDomain: null }, keep, req, MENU);
  }

  /** Live local children of a folder. */
  async countChildren(parentId: string): Promise<number> {
    return this.countWhere({ parentId, originDomain: null, deletedAt: null });
  }

  /**
   * GET /pages: `@public` live pages, optionally with a tag or of a server, in the admin's order
   * then newest first: the live public pages' index range, tag and server tested on the way.
   */
  async pagePublic(
    q: { tag?: string | undefined; serverId?: string | undefined },
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<PageRecord>> {
    const keep = (p: PageRecord) =>
      (!q.tag || (p.tags ?? []).includes(q.tag)) && (!q.serverId || p.server === q.serverId);
    return this.scanPage({ to: '@public', deletedAt: null }, keep, req, MENU, fields);
  }
}

/** Which bookmark items a list holds: `Bookmark`, `Folder`, or both when unset. */
export type BookmarkType = 'Bookmark' | 'Folder' | undefined;

function typeClause(type: BookmarkType): Filter {
  return { type: type ?? { $in: ['Bookmark', 'Folder'] } };
}

export class BookmarksStore extends ContentCollection<Keyed<BookmarkRecord>> {
  constructor(
    engine: Engine,
    private readonly domain: string,
  ) {
    super(engine, BOOKMARKS, DEFAULTS.bookmark);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<BookmarkRecord> {
    return this.insertNew(doc);
  }

  /** Live items directly in a folder of an owner (folder trees). */
  async childrenOf(ownerId: string, folderId: string): Promise<BookmarkRecord[]> {
    return this.childrenIn('parentFolder', [folderId], ownerId);
  }

  /** Soft-deletes many (a folder's descendants). */
  async tombstoneMany(ids: readonly string[], fields: Record<string, unknown>): Promise<void> {
    const at = fields.deletedAt instanceof Date ? fields.deletedAt : new Date();
    for (const id of ids) await this.softDelete(id, { ...fields, deletedAt: at });
  }

  /**
   * GET /bookmarks: every owner's root items the viewer may read, newest first (pageVisible: the
   * range of the viewer's audiences and their own items).
   */
  async pageRootsVisibleTo(
    viewer: Viewer,
    type: BookmarkType,
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<BookmarkRecord>> {
    const roots = { parentFolder: null, deletedAt: null, ...typeClause(type) };
    return this.pageVisible(roots, viewer, this.domain, req, NEWEST, fields);
  }

  /**
   * GET /users/:id/bookmarks: an owner's live items directly in a folder (`null`: the root;
   * `undefined`: in any folder), newest first; the owner sees all of them, anyone else those
   * they may read (tested on the way through the owner's index range).
   */
  async pageForOwner(
    ownerId: string,
    folderId: string | null | undefined,
    q: { type: BookmarkType; viewer: Viewer },
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<BookmarkRecord>> {
    const own = q.viewer.id !== undefined && q.viewer.id === ownerId;
    const keep = (b: BookmarkRecord) => own || canSee(b, q.viewer, this.domain);
    return this.scanPage(
      {
        actorId: String(ownerId),
        deletedAt: null,
        ...(folderId === undefined ? {} : { parentFolder: folderId }),
        ...typeClause(q.type),
      },
      keep,
      req,
      NEWEST,
      fields,
    );
  }
}

export class GroupsStore extends ContentCollection<Keyed<GroupRecord>> {
  constructor(
    engine: Engine,
    private readonly domain: string,
  ) {
    super(engine, GROUPS, DEFAULTS.group);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<GroupRecord> {
    return this.insertNew(doc);
  }

  /** GET /admin/groups: by RSVP policy when given (its index), else every group; newest first. */
  async pageForAdmin(
    q: { deleted: DeletedMode; rsvpPolicy?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<GroupRecord>> {
    const base: Filter = q.rsvpPolicy
      ? { rsvpPolicy: q.rsvpPolicy }
      : q.deleted === 'live'
        ? { deletedAt: null }
        : {};
    return this.scanPage(base, (g) => inMode(q.deleted, g), req, NEWEST);
  }

  /**
   * Another server's group as cached here (`originDomain` set): created on first mention, its
   * description refreshed by later ones. Null when a group of that id is held from elsewhere (or
   * is deleted here).
   */
  async cacheRemote(
    doc: Pick<GroupRecord, 'id' | 'name' | 'actorId' | 'to' | 'rsvpPolicy'> & {
      originDomain: string;
      /** Its members circle, cached here too (an Accept may come before it). */
      membersCircle?: string;
      description?: string;
      icon?: string;
    },
  ): Promise<GroupRecord | null> {
    const { membersCircle, ...rest } = doc;
    const fields = {
      name: rest.name,
      to: rest.to,
      canReply: rest.id,
      canReact: rest.id,
      rsvpPolicy: rest.rsvpPolicy,
      description: rest.description ?? null,
      ...(rest.icon ? { icon: rest.icon } : {}),
      ...(membersCircle ? { circles: { members: membersCircle } } : {}),
    };
    const held = await this.byId(doc.id);
    if (!held) {
      try {
        return await this.insertNew({
          ...rest,
          ...fields,
          type: 'Group',
          objectType: 'Group',
          server: `@${rest.originDomain}`,
          memberCount: 0,
        });
      } catch (err) {
        // A concurrent first mention cached it.
        if (!(err instanceof DuplicateKeyError)) throw err;
        return this.cacheRemote(doc);
      }
    }
    if (held.originDomain !== rest.originDomain || held.deletedAt) return null;
    return this.set(doc.id, fields);
  }

  async bumpMembers(id: string, by: 1 | -1): Promise<void> {
    await this.bump(id, 'memberCount', by);
  }

  /**
   * GET /groups: local live groups the viewer may read (own ones included), newest first
   * (pageVisible: the range of the viewer's audiences and their own groups).
   */
  async pageLocalVisibleTo(
    viewer: Viewer,
    req: PageRequest,
    fields?: Fields,
  ): Promise<FoundRows<GroupRecord>> {
    return this.pageVisible(
      { originDomain: null, deletedAt: null },
      viewer,
      this.domain,
      req,
      NEWEST,
      fields,
    );
  }
}
