/**
 * Curation stores (spec 4.5 "curation behind the public Discover feed"): sections (shelves) and
 * the recommendations placed on them. A section owns its recommendations: its full delete
 * removes them.
 */
import type { Models, RecommendationDoc, RefType, SectionDoc } from '../models';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';
import { deletedClause, type DeletedMode } from './listing';

export type SectionRecord = SectionDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type RecommendationRecord = RecommendationDoc & { id: string; createdAt?: Date; updatedAt?: Date };

export class SectionsStore extends ObjectStore<SectionRecord> {
  constructor(models: Models) {
    super(models.Section);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<SectionRecord> {
    return this.insert(doc);
  }

  /** GET /admin/sections, in shelf order (a scan: a handful of documents). */
  async pageForAdmin(deleted: DeletedMode, req: PageRequest): Promise<FoundRows<SectionRecord>> {
    return this.page(deletedClause(deleted), req, { order: 1, createdAt: 1, _id: 1 });
  }

  /** Live, active sections in shelf order (Discover). */
  async active(): Promise<SectionRecord[]> {
    const rows = await this.findAll({ deletedAt: null, active: true });
    return rows.sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || time(a.createdAt) - time(b.createdAt));
  }
}

export interface AdminRecommendationQuery {
  deleted: DeletedMode;
  section?: string | undefined;
  refType?: string | undefined;
}

export class RecommendationsStore extends ObjectStore<RecommendationRecord> {
  constructor(models: Models) {
    super(models.Recommendation);
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<RecommendationRecord> {
    return this.insert(doc);
  }

  /** GET /admin/recommendations (a scan: admin list). */
  async pageForAdmin(
    q: AdminRecommendationQuery,
    req: PageRequest,
  ): Promise<FoundRows<RecommendationRecord>> {
    const filter: Record<string, unknown> = { ...deletedClause(q.deleted) };
    if (q.section) filter.section = q.section;
    if (q.refType) filter.refType = q.refType;
    return this.page(filter, req, { createdAt: -1, _id: -1 });
  }

  /** A section's live, active entries in order (one top-level equality filter on `section`). */
  async shelf(sectionId: string): Promise<RecommendationRecord[]> {
    const rows = await this.findAll({ section: sectionId });
    return rows
      .filter((r) => !r.deletedAt && r.active !== false)
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || time(a.createdAt) - time(b.createdAt));
  }

  /** Removes every entry of a section (its full delete); how many. */
  async removeForSection(sectionId: string): Promise<number> {
    return (await this.model.deleteMany({ section: sectionId })).deletedCount;
  }
}

function time(d: Date | string | undefined | null): number {
  return d ? new Date(d).getTime() : 0;
}

/** What a recommendation's target needs to be checked and shown. */
export type CurationTarget = Record<string, unknown> & {
  id: string;
  to?: string | null;
  actorId?: string | null;
  deletedAt?: Date | null;
  originDomain?: string | null;
};

interface TargetStores {
  posts: { liveById(id: string): Promise<unknown> };
  circles: { liveById(id: string): Promise<unknown> };
  groups: { liveById(id: string): Promise<unknown> };
  pages: { liveById(id: string): Promise<unknown> };
  bookmarks: { liveById(id: string): Promise<unknown> };
}

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
