/**
 * The search index store (docs/adr/0004-search-prefix-terms.md). Writers hand it the object's
 * terms; readers ask for the entries holding one term (top-level equality on an array, which
 * FerretDB pushes down and MongoDB answers from a multikey index) and check the rest in memory.
 */
import type { Models, SearchEntryDoc } from '../models';

export type SearchKind = SearchEntryDoc['kind'];
export type SearchEntry = SearchEntryDoc;

export class SearchRepository {
  constructor(private readonly models: Models) {}

  async upsert(entry: SearchEntry): Promise<void> {
    await this.models.SearchEntry.replaceOne({ _id: entry._id }, entry, { upsert: true });
  }

  async remove(objectId: string): Promise<void> {
    await this.models.SearchEntry.deleteOne({ _id: objectId });
  }

  /** Entries holding `term` (optionally of one kind), newest first, at most `limit`. */
  async withTerm(term: string, kind: SearchKind | undefined, limit: number): Promise<SearchEntry[]> {
    return this.models.SearchEntry.find(kind ? { kind, terms: term } : { terms: term })
      .sort({ at: -1 })
      .limit(limit)
      .lean<SearchEntry[]>();
  }

  /** Whether anything was ever indexed (the start-up backfill runs once on an empty index). */
  async isEmpty(): Promise<boolean> {
    return (await this.models.SearchEntry.findOne({}, { _id: 1 }).lean()) === null;
  }
}
