/**
 * The search index store (docs/adr/0008-search-prefix-terms.md). Writers hand it the object's
 * terms; readers ask for the entries holding one term (top-level equality on an array, which
 * FerretDB pushes down and MongoDB answers from a multikey index) and check the rest in memory.
 */
import { GroupCommit } from '../group-commit';
import type { Models, SearchEntryDoc } from '../models';
import { turnOf } from '../write-gate';
import { totalSort } from './listing';
import type { UsersRepository } from './users';

export type SearchKind = SearchEntryDoc['kind'];
export type SearchEntry = SearchEntryDoc;

/** What account deletion withdraws (groups outlive their creator and stay searchable). */
const WITHDRAWN_KINDS: SearchKind[] = ['User', 'Post', 'Page', 'Bookmark'];

type IndexOp =
  | { replaceOne: { filter: { _id: string }; replacement: SearchEntry; upsert: true } }
  | { deleteOne: { filter: { _id: string } } }
  | { deleteMany: { filter: { actorId: string; kind: { $in: SearchKind[] } } } };

export class SearchRepository {
  /**
   * Index changes that arrive while earlier writes run go together in one ordered bulk write
   * (group commit, ADR 0011 item 10): in arrival order, so a removal never runs before an
   * earlier upsert of the same entry.
   */
  private readonly changes: GroupCommit<IndexOp>;

  constructor(
    private readonly models: Models,
    /** Users live in their own store over the engine port (ADR 0013). */
    private readonly users: Pick<UsersRepository, 'findById' | 'allLive'>,
  ) {
    this.changes = new GroupCommit(async (ops) => {
      await this.models.SearchEntry.bulkWrite(ops, { ordered: true });
    }, turnOf(models.SearchEntry));
  }

  async upsert(entry: SearchEntry): Promise<void> {
    await this.changes.add({ replaceOne: { filter: { _id: entry._id }, replacement: entry, upsert: true } });
  }

  async remove(objectId: string): Promise<void> {
    await this.changes.add({ deleteOne: { filter: { _id: objectId } } });
  }

  /**
   * A deleted account's entries (AccountContentRepository.withdraw): through the same ordered
   * queue as upserts, so an earlier queued upsert of the account's content cannot land after it.
   * Equality on `actorId`, a scan of the index: an account is deleted rarely.
   */
  async removeByActor(actorId: string): Promise<void> {
    await this.changes.add({ deleteMany: { filter: { actorId, kind: { $in: WITHDRAWN_KINDS } } } });
  }

  /** Entries holding `term` (optionally of one kind), newest first, at most `limit`. */
  async withTerm(term: string, kind: SearchKind | undefined, limit: number): Promise<SearchEntry[]> {
    return this.models.SearchEntry.find(kind ? { kind, terms: term } : { terms: term })
      .sort(totalSort({ at: -1 }))
      .limit(limit)
      .lean<SearchEntry[]>();
  }

  /** The live object behind an index entry (null when missing or deleted). */
  async source(kind: SearchKind, id: string): Promise<Record<string, unknown> | null> {
    // `_id` is the object's id (ADR 0005); liveness is checked on the one document.
    const doc =
      kind === 'User'
        ? ((await this.users.findById(id)) as Record<string, unknown> | null)
        : await this.modelOf(kind).findOne({ _id: id }).lean<Record<string, unknown>>();
    if (!doc || doc.deletedAt || (kind === 'User' && doc.active === false)) return null;
    return doc;
  }

  /** Every live object of a kind, for the one-time backfill (a cursor: never all in memory). */
  async *allSources(kind: SearchKind): AsyncGenerator<Record<string, unknown>> {
    if (kind === 'User') {
      yield* this.users.allLive();
      return;
    }
    const cursor = this.modelOf(kind).find({ deletedAt: null }).lean<Record<string, unknown>>().cursor();
    for await (const doc of cursor) yield doc;
  }

  private modelOf(kind: Exclude<SearchKind, 'User'>) {
    const m = {
      Post: this.models.Post,
      Page: this.models.Page,
      Group: this.models.Group,
      Bookmark: this.models.Bookmark,
    };
    return m[kind] as typeof this.models.Post;
  }

  /** Whether anything was ever indexed (the start-up backfill runs once on an empty index). */
  async isEmpty(): Promise<boolean> {
    return (await this.models.SearchEntry.findOne({}, { _id: 1 }).lean()) === null;
  }
}
