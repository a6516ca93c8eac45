/**
 * The search index store (docs/adr/0008-search-prefix-terms.md), written over the engine port
 * (ADR 0013). Two collections:
 * - `search_entries`: one row per searchable object (`_id` = its id) with its terms and the
 *   copies the first audience filter reads. It is the truth: a candidate counts only when its
 *   entry holds the term.
 * - `search_terms`: one row per (term, object, revision), indexed by term then time, which is
 *   the query shape of GET /search (the port has no query into arrays).
 *
 * No transaction spans the two (MongoDB 7 has none), so writes are ordered for crashes and races:
 * an upsert writes its term rows under a fresh revision first, then moves the entry to that
 * revision by a compare-and-set on the revision it read, and only the winner removes the rows
 * of the revision it replaced. A row left by a crash or a lost race only costs a candidate slot
 * (its entry does not name its revision's terms, or it duplicates a live row), never a wrong
 * result; a removal clears every row of the object.
 */
import { randomBytes } from 'node:crypto';
import type { CollectionSpec, Engine, Sort } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

export const SEARCH_KINDS = ['User', 'Post', 'Page', 'Group', 'Bookmark'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Where the indexed objects live (search-sources.ts), read back to index and to verify. */
export type SearchSources = {
  /** The live object (null when missing, deleted or a deactivated user). */
  source(kind: SearchKind, id: string): Promise<Record<string, unknown> | null>;
  /** Every live object of a kind, a cursor (never all in memory). */
  allSources(kind: SearchKind): AsyncIterable<Record<string, unknown>>;
};

/** What the index knows of one object. */
export type SearchEntry = {
  /** The object's id. */
  _id: string;
  kind: SearchKind;
  terms: string[];
  /** Copies for a cheap first audience filter; the object itself is checked before answering. */
  to: string;
  actorId: string | null;
  /** Published (or created) time: results are newest first. */
  at: Date;
};

type EntryRow = SearchEntry & {
  /** The revision whose term rows stand for this entry. */
  rev: string;
};

type TermRow = {
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

export const SEARCH_ENTRIES: CollectionSpec = {
  name: 'search_entries',
  // Account deletion withdraws the account's entries of some kinds.
  indexes: [
    {
      fields: [
        ['actorId', 1],
        ['kind', 1],
      ],
      serves: 'search.removeByActor',
    },
  ],
  dates: ['at'],
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

/** What account deletion withdraws (groups outlive their creator and stay searchable). */
const WITHDRAWN_KINDS: SearchKind[] = ['User', 'Post', 'Page', 'Bookmark'];

const NEWEST: Sort = [
  ['at', -1],
  ['_id', -1],
];

/** Compare-and-set attempts of one upsert (each loses only to another write of the object). */
const UPSERT_ATTEMPTS = 20;

const newRev = () => randomBytes(8).toString('hex');

function sameIndex(a: SearchEntry, b: SearchEntry): boolean {
  if (a.kind !== b.kind || a.at.getTime() !== b.at.getTime() || a.terms.length !== b.terms.length)
    return false;
  const terms = new Set(a.terms);
  return b.terms.every((t) => terms.has(t));
}

function entryOf(row: EntryRow): SearchEntry {
  const { rev, ...entry } = row;
  void rev;
  return entry;
}

export class SearchStore {
  private readonly entries;
  private readonly terms;

  constructor(
    engine: Engine,
    /** The searchable objects themselves, in their own stores. */
    private readonly sources: SearchSources,
  ) {
    this.entries = engine.collection<EntryRow>(SEARCH_ENTRIES);
    this.terms = engine.collection<TermRow>(SEARCH_TERMS);
  }

  /** Writes (or rewrites) an object's entry; of concurrent upserts of one object the last wins. */
  async upsert(entry: SearchEntry): Promise<void> {
    const fresh = { ...entry, terms: [...new Set(entry.terms)] };
    for (let i = 0; i < UPSERT_ATTEMPTS; i++) {
      const old = await this.entries.findOne({ _id: entry._id });
      if (old && sameIndex(old, fresh)) {
        // Same terms and time: the rows stand; only the copies may have changed.
        const res = await this.entries.updateOne(
          { _id: entry._id, rev: old.rev },
          { $set: { to: fresh.to, actorId: fresh.actorId } },
        );
        if (res.matched === 1) return;
        continue;
      }
      const rev = newRev();
      if (fresh.terms.length)
        await this.terms.insertMany(
          fresh.terms.map((term) => ({
            _id: `${entry._id} ${rev} ${term}`,
            term,
            objectId: entry._id,
            kind: fresh.kind,
            at: fresh.at,
            rev,
          })),
        );
      if (await this.moveEntry(old, { ...fresh, rev })) {
        if (old) await this.terms.deleteMany({ objectId: entry._id, rev: old.rev });
        return;
      }
      // Another write of the object came first: this revision's rows stand for nothing.
      await this.terms.deleteMany({ objectId: entry._id, rev });
    }
    throw new Error(`search entry ${entry._id}: kept losing to concurrent writes`);
  }

  /** The entry moved from `old` to `next` by a compare-and-set; false when another write won. */
  private async moveEntry(old: EntryRow | null, next: EntryRow): Promise<boolean> {
    if (!old) {
      try {
        await this.entries.insertOne(next);
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    const { _id, ...fields } = next;
    const res = await this.entries.updateOne({ _id, rev: old.rev }, { $set: { ...fields } });
    return res.matched === 1;
  }

  /** Drops an object's entry, then every row of it (rows without an entry are never answered). */
  async remove(objectId: string): Promise<void> {
    await this.entries.deleteOne({ _id: objectId });
    await this.terms.deleteMany({ objectId });
  }

  /** A deleted account's entries (AccountContentStore.withdraw). */
  async removeByActor(actorId: string): Promise<void> {
    const rows = await this.entries.find({ actorId, kind: { $in: WITHDRAWN_KINDS } }, { fields: [] });
    for (const r of rows) await this.remove(r._id);
  }

  /** Entries holding `term` (optionally of one kind), newest first, at most `limit`. */
  async withTerm(term: string, kind: SearchKind | undefined, limit: number): Promise<SearchEntry[]> {
    const perKind = await Promise.all(
      (kind ? [kind] : SEARCH_KINDS).map((k) =>
        this.terms.find({ kind: k, term }, { sort: NEWEST, limit, fields: ['objectId', 'at'] }),
      ),
    );
    // Every kind's newest `limit`, merged: the newest `limit` of all of them are among these.
    const rows = perKind
      .flat()
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
      .slice(0, limit);
    const ids = [...new Set(rows.map((r) => r.objectId))];
    if (!ids.length) return [];
    const found = new Map((await this.entries.find({ _id: { $in: ids } })).map((e) => [e._id, e]));
    return ids
      .map((id) => found.get(id))
      .filter((e): e is EntryRow => !!e && e.terms.includes(term) && (!kind || e.kind === kind))
      .map(entryOf);
  }

  /** The live object behind an index entry (null when missing or deleted). */
  source(kind: SearchKind, id: string): Promise<Record<string, unknown> | null> {
    return this.sources.source(kind, id);
  }

  /** Every live object of a kind, for the one-time backfill. */
  allSources(kind: SearchKind): AsyncIterable<Record<string, unknown>> {
    return this.sources.allSources(kind);
  }

  /** Whether anything was ever indexed (the start-up backfill runs once on an empty index). */
  async isEmpty(): Promise<boolean> {
    return (await this.entries.findOne({}, { fields: [] })) === null;
  }
}
