/**
 * The search index's term rows (docs/adr/0008-search-prefix-terms.md), kept by SearchStore on an
 * engine without a term index of its own (MongoDB; on SQLite the entries' term index replaces
 * them, ADR 0033): one row per (term, object, revision), indexed by kind, term then time, the
 * query shape of GET /search (the port has no query into arrays). An entry's `rev` names the
 * revision whose rows stand for it.
 */
import type { CollectionSpec, Engine, Sort } from '../engine/port';
import type { SearchKind } from './search';

export type TermRow = {
  /**
   * `${objectId} ${rev} ${term}`: one object's rows are neighbours in the key's index, so a new
   * post's twenty-odd rows land in a page or two of it instead of one page per term (the `term`
   * indexes already serve the search); for one term, ties on `at` still order by object id.
   */
  _id: string;
  term: string;
  objectId: string;
  kind: SearchKind;
  at: Date;
  rev: string;
};

export const SEARCH_TERMS: CollectionSpec = {
  name: 'search_terms',
  indexes: [
    // GET /search: the objects of one kind holding a term, newest first. A search of every kind
    // reads this index once per kind and merges: one index fewer for each of a post's twenty-odd
    // term rows to keep up (a leaf written per term, on every post), a few more reads per search.
    {
      fields: [
        ['kind', 1],
        ['term', 1],
        ['at', -1],
      ],
      serves: 'search.withTerm',
    },
    // An object's rows of one revision (replaced by an upsert), or all of them (a removal).
    {
      fields: [
        ['objectId', 1],
        ['rev', 1],
      ],
      serves: 'search.upsert cleanup, remove',
    },
  ],
  dates: ['at'],
};

const NEWEST: Sort = [
  ['at', -1],
  ['_id', -1],
];

/**
 * Marks a rebuild under way (its `_id` is no row's: object ids never start with a space), so one
 * cut short is finished at the next start.
 */
const REBUILDING = ' rebuilding';

/** What a rebuild reads of an entry. */
export type IndexedEntry = { _id: string; kind: SearchKind; terms: string[]; at: Date; rev: string };

export class TermRows {
  private readonly rows;

  constructor(engine: Engine) {
    this.rows = engine.collection<TermRow>(SEARCH_TERMS);
  }

  private rowsOf(e: IndexedEntry): TermRow[] {
    return e.terms.map((term) => ({
      _id: `${e._id} ${e.rev} ${term}`,
      term,
      objectId: e._id,
      kind: e.kind,
      at: e.at,
      rev: e.rev,
    }));
  }

  /** The rows of an entry's revision, before the entry names it. */
  async write(e: IndexedEntry): Promise<void> {
    if (e.terms.length) await this.rows.insertMany(this.rowsOf(e));
  }

  /** An object's rows of one revision, or all of them. */
  async remove(objectId: string, rev?: string): Promise<void> {
    await this.rows.deleteMany(rev === undefined ? { objectId } : { objectId, rev });
  }

  /** Object ids holding `term` in any of `kinds`, newest first, at most `limit`. */
  async find(term: string, kinds: readonly SearchKind[], limit: number): Promise<string[]> {
    const perKind = await Promise.all(
      kinds.map((kind) =>
        this.rows.find({ kind, term }, { sort: NEWEST, limit, fields: ['objectId', 'at'] }),
      ),
    );
    // Every kind's newest `limit`, merged: the newest `limit` of all of them are among these.
    const rows = perKind
      .flat()
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
      .slice(0, limit);
    return [...new Set(rows.map((r) => r.objectId))];
  }

  /**
   * Whether the rows need a rebuild from the entries: there are entries but no rows (a backup or
   * a copy from an engine that keeps none: SQLite), or a rebuild was cut short.
   */
  async stale(hasEntries: boolean): Promise<boolean> {
    if (!hasEntries) return false;
    const any = await this.rows.findOne({}, { fields: [] });
    return !any || !!(await this.rows.findOne({ _id: REBUILDING }, { fields: [] }));
  }

  /**
   * Every entry's rows, under the revision it names; rows already there are skipped, so a rerun
   * (or two processes at once) is harmless. A row a concurrent upsert made stale costs a
   * candidate slot, as ever, never a wrong result.
   */
  async rebuild(entries: AsyncIterable<IndexedEntry[]>): Promise<number> {
    const mark: TermRow = {
      _id: REBUILDING,
      term: '',
      objectId: REBUILDING,
      kind: 'Post',
      at: new Date(0),
      rev: '',
    };
    await this.rows.insertEach([mark]);
    let n = 0;
    for await (const page of entries) {
      const rows = page.flatMap((e) => this.rowsOf(e));
      if (rows.length) await this.rows.insertEach(rows);
      n += page.length;
    }
    await this.rows.deleteOne({ _id: REBUILDING });
    return n;
  }
}
