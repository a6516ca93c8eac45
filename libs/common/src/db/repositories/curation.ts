/**
 * Curation stores (spec 4.5 "curation behind the public Discover feed"): sections (shelves) and
 * the recommendations placed on them, written over the engine port (ADR 0013). A section owns
 * its recommendations: its full delete removes them. Both are server content; admins write them
 * through /admin with the shared CRUD shape (soft delete, restore, `deleted=true|include`).
 */
import type { CollectionSpec, Engine, Filter, Sort } from '../engine/port';
import type { FoundRows, PageRequest } from './object-collection';
import { deletedCondition, PortObjectStore, type ObjectRow } from './port-objects';
import type { DeletedMode } from './listing';

export const REF_TYPES = ['Post', 'Circle', 'Group', 'Bookmark', 'Page'] as const;
export type RefType = (typeof REF_TYPES)[number];

export type SectionRecord = ObjectRow & {
  objectType: 'Section';
  name: string;
  slug?: string;
  summary: string;
  order: number;
  /** The tier that may see it (public or the server's users). */
  to: string;
  active: boolean;
  actorId: string;
  server?: string;
  url?: string;
  deletedBy?: string;
};

export type NewSection = Pick<SectionRecord, 'id' | 'name' | 'to' | 'actorId'> &
  Partial<Pick<SectionRecord, 'slug' | 'summary' | 'order' | 'active' | 'server' | 'url'>>;

export type RecommendationRecord = ObjectRow & {
  objectType: 'Recommendation';
  section: string;
  ref: string;
  refType: RefType;
  note: string;
  order: number;
  active: boolean;
  /** The target's tier when it was added: bookkeeping only (spec 2); reads check the live target. */
  visibility: 'public' | 'server';
  addedBy?: string;
  actorId: string;
  server?: string;
  deletedBy?: string;
};

export type NewRecommendation = Pick<
  RecommendationRecord,
  'id' | 'section' | 'ref' | 'refType' | 'visibility' | 'actorId'
> &
  Partial<Pick<RecommendationRecord, 'note' | 'order' | 'active' | 'addedBy' | 'server'>>;

/** Shelf order: `order`, then creation, then id (a total order). */
const SHELF_ORDER: Sort = [
  ['order', 1],
  ['createdAt', 1],
  ['_id', 1],
];
const NEWEST: Sort = [
  ['createdAt', -1],
  ['_id', -1],
];

export const SECTIONS: CollectionSpec = {
  name: 'sections',
  indexes: [
    // Discover: the live, active shelves in order.
    {
      fields: [
        ['deletedAt', 1],
        ['active', 1],
        ['order', 1],
        ['createdAt', 1],
      ],
      serves: 'sections.active',
    },
    // GET /admin/sections?deleted=false in shelf order; the count of deleted=true.
    {
      fields: [
        ['deletedAt', 1],
        ['order', 1],
        ['createdAt', 1],
      ],
      serves: 'sections.pageForAdmin live; count of deleted',
    },
    // GET /admin/sections?deleted=include|true in shelf order (deleted ones filtered on the way).
    {
      fields: [
        ['order', 1],
        ['createdAt', 1],
      ],
      serves: 'sections.pageForAdmin include|deleted',
    },
  ],
  dates: ['createdAt', 'updatedAt', 'deletedAt'],
};

export const RECOMMENDATIONS: CollectionSpec = {
  name: 'recommendations',
  indexes: [
    // Discover: one section's entries in order; a section's full delete removes them; the admin
    // list of one section (a shelf holds a handful: filtered and paged after the read).
    {
      fields: [
        ['section', 1],
        ['order', 1],
        ['createdAt', 1],
      ],
      serves: 'recommendations.shelf, bySection',
    },
    // GET /admin/recommendations, newest first: live, and the count of deleted=true.
    {
      fields: [
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'recommendations.pageForAdmin live; count of deleted',
    },
    // deleted=include|true (deleted ones filtered on the way).
    { fields: [['createdAt', -1]], serves: 'recommendations.pageForAdmin include|deleted' },
    // The same narrowed by target type.
    {
      fields: [
        ['refType', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'recommendations.pageForAdmin by refType, live; count of deleted',
    },
    {
      fields: [
        ['refType', 1],
        ['createdAt', -1],
      ],
      serves: 'recommendations.pageForAdmin by refType',
    },
  ],
  dates: ['createdAt', 'updatedAt', 'deletedAt'],
};

export class SectionsStore extends PortObjectStore<SectionRecord> {
  constructor(engine: Engine) {
    super(engine, SECTIONS);
  }

  async create(section: NewSection): Promise<SectionRecord> {
    return this.insertNew({
      summary: '',
      order: 0,
      active: true,
      ...section,
      objectType: 'Section',
      deletedAt: null,
    });
  }

  /** GET /admin/sections, in shelf order. */
  async pageForAdmin(deleted: DeletedMode, req: PageRequest): Promise<FoundRows<SectionRecord>> {
    return this.page(deletedCondition(deleted), req, SHELF_ORDER);
  }

  /** Live, active sections in shelf order (Discover). */
  async active(): Promise<SectionRecord[]> {
    return this.rows.find({ deletedAt: null, active: true }, { sort: SHELF_ORDER });
  }
}

export type AdminRecommendationQuery = {
  deleted: DeletedMode;
  section?: string | undefined;
  refType?: RefType | undefined;
};

export class RecommendationsStore extends PortObjectStore<RecommendationRecord> {
  constructor(engine: Engine) {
    super(engine, RECOMMENDATIONS);
  }

  async create(rec: NewRecommendation): Promise<RecommendationRecord> {
    return this.insertNew({
      note: '',
      order: 0,
      active: true,
      ...rec,
      objectType: 'Recommendation',
      deletedAt: null,
    });
  }

  /** GET /admin/recommendations, newest first. */
  async pageForAdmin(
    q: AdminRecommendationQuery,
    req: PageRequest,
  ): Promise<FoundRows<RecommendationRecord>> {
    if (q.section) return this.sectionPage(q as AdminRecommendationQuery & { section: string }, req);
    const filter: Filter = { ...deletedCondition(q.deleted) };
    if (q.refType) filter.refType = q.refType;
    return this.page(filter, req, NEWEST);
  }

  /**
   * One section's entries as the admin list shows them: the section is read whole (a shelf holds
   * a handful of entries, and Discover reads it whole too), then narrowed, ordered and paged.
   */
  private async sectionPage(
    q: AdminRecommendationQuery & { section: string },
    req: PageRequest,
  ): Promise<FoundRows<RecommendationRecord>> {
    const all = await this.rows.find({ section: q.section }, { sort: SHELF_ORDER });
    const wanted = all
      .filter((r) => matches(q.deleted, r) && (!q.refType || r.refType === q.refType))
      .sort(newestFirst);
    return { total: wanted.length, items: wanted.slice(req.skip, req.skip + req.limit) };
  }

  /** A section's live, active entries in order (the section's entries are few: filtered here). */
  async shelf(sectionId: string): Promise<RecommendationRecord[]> {
    const rows = await this.rows.find({ section: sectionId }, { sort: SHELF_ORDER });
    return rows.filter((r) => !r.deletedAt && r.active !== false);
  }

  /** Removes every entry of a section (its full delete); how many. */
  async removeForSection(sectionId: string): Promise<number> {
    return this.rows.deleteMany({ section: sectionId });
  }
}

function matches(mode: DeletedMode, r: RecommendationRecord): boolean {
  if (mode === 'include') return true;
  return mode === 'deleted' ? !!r.deletedAt : !r.deletedAt;
}

/** NEWEST in memory: creation time descending, then `_id` descending. */
function newestFirst(a: RecommendationRecord, b: RecommendationRecord): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}

/** What a recommendation's target needs to be checked and shown. */
export type CurationTarget = Record<string, unknown> & {
  id: string;
  to?: string | null;
  actorId?: string | null;
  deletedAt?: Date | null;
  originDomain?: string | null;
};

type TargetStores = {
  posts: { liveById(id: string): Promise<unknown> };
  circles: { liveById(id: string): Promise<unknown> };
  groups: { liveById(id: string): Promise<unknown> };
  pages: { liveById(id: string): Promise<unknown> };
  bookmarks: { liveById(id: string): Promise<unknown> };
};

/**
 * The live local object a recommendation points at (one `_id` read), or null: deleted, unknown
 * or a copy of a remote object.
 */
export async function liveTarget(
  stores: TargetStores,
  refType: RefType,
  id: string,
): Promise<CurationTarget | null> {
  const store =
    refType === 'Post'
      ? stores.posts
      : refType === 'Circle'
        ? stores.circles
        : refType === 'Group'
          ? stores.groups
          : refType === 'Page'
            ? stores.pages
            : stores.bookmarks;
  const found = (await store.liveById(id)) as CurationTarget | null;
  return found && !found.originDomain ? found : null;
}
