/**
 * The search index store (docs/adr/0008-search-prefix-terms.md, ADR 0033), written over the
 * engine port (ADR 0013). `search_entries` holds one row per searchable object (`_id` = its id)
 * with its terms and the copies the first audience filter reads. It is the truth: a candidate
 * counts only when its entry holds the term. Candidates come from a term index:
 * - on an engine that keeps one (`Engine.findByTerm`: SQLite's FTS5), the entries' own
 *   (`termIndex` below), written by the engine with each entry in one transaction: an upsert is
 *   one write of the entry, a removal one delete;
 * - elsewhere (MongoDB), term rows (`search-term-rows.ts`). No transaction spans the entry and
 *   its rows (MongoDB 7 has none), so writes are ordered for crashes and races: an upsert writes
 *   its term rows under a fresh revision first, then moves the entry to that revision by a
 *   compare-and-set on the revision it read, and only the winner removes the rows of the
 *   revision it replaced. A row left by a crash or a lost race only costs a candidate slot (its
 *   entry does not name its revision's terms, or it duplicates a live row), never a wrong
 *   result; a removal clears every row of the object.
 * Entries have one shape on both engines (the revision included), so a backup or a copy moves
 * them as they are; the term rows are rebuilt from them where missing (`prepare`).
 */
import { randomBytes } from 'node:crypto';
import type { CollectionSpec, Engine, TermQuery } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';
import { SEARCH_TERMS, TermRows } from './search-term-rows';

export { SEARCH_TERMS };

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
  // GET /search, on an engine that keeps term indexes: the objects holding a term, newest first.
  termIndex: { terms: 'terms', within: 'kind', newest: 'at', serves: 'search.withTerm' },
};

/** What account deletion withdraws (groups outlive their creator and stay searchable). */
const WITHDRAWN_KINDS: SearchKind[] = ['User', 'Post', 'Page', 'Bookmark'];

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
  /** The term rows kept up, on an engine without a term index; undefined where it keeps one. */
  private readonly rows: TermRows | undefined;
  private readonly findByTerm: ((q: TermQuery) => Promise<string[]>) | undefined;

  constructor(
    private readonly engine: Engine,
    /** The searchable objects themselves, in their own stores. */
    private readonly sources: SearchSources,
  ) {
    this.entries = engine.collection<EntryRow>(SEARCH_ENTRIES);
    const find = engine.findByTerm?.bind(engine);
    this.findByTerm = find && ((q: TermQuery) => find(SEARCH_ENTRIES, q));
    this.rows = find ? undefined : new TermRows(engine);
  }

  /**
   * At start, once the collections are ensured (Stores.prepare, a restore's end). Where the engine
   * keeps no term index: `search_terms` ensured, and its rows rebuilt from the entries when an
   * archive or a copy brought entries without them. Where it keeps one: a `search_terms` left
   * by the term-row design (an older database, an archive from MongoDB) dropped. With `rebuild`
   * (a copy that replaced the entries), the rows are rebuilt whatever they hold. Says what it did.
   */
  async prepare(opts: { rebuild?: boolean } = {}): Promise<'rebuilt' | 'dropped' | null> {
    const held = (await this.engine.names()).includes(SEARCH_TERMS.name);
    if (!this.rows) {
      if (!held) return null;
      await this.engine.drop(SEARCH_TERMS.name);
      return 'dropped';
    }
    if (opts.rebuild && held) await this.engine.drop(SEARCH_TERMS.name);
    await this.engine.ensure([SEARCH_TERMS]);
    if (!(await this.rows.stale(!(await this.isEmpty())))) return null;
    await this.rows.rebuild(this.entries.scan(500));
    return 'rebuilt';
  }

  /** Writes (or rewrites) an object's entry; of concurrent upserts of one object the last wins. */
  async upsert(entry: SearchEntry): Promise<void> {
    const fresh = { ...entry, terms: [...new Set(entry.terms)] };
    if (!this.rows) {
      // One atomic write: the engine changes the term index with the entry.
      const { _id, ...fields } = fresh;
      await this.entries.updateOne({ _id }, { $set: { ...fields, rev: newRev() } }, { upsert: true });
      return;
    }
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
      await this.rows.write({ ...fresh, rev });
      if (await this.moveEntry(old, { ...fresh, rev })) {
        if (old) await this.rows.remove(entry._id, old.rev);
        return;
      }
      // Another write of the object came first: this revision's rows stand for nothing.
      await this.rows.remove(entry._id, rev);
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
    await this.rows?.remove(objectId);
  }

  /** A deleted account's entries (AccountContentStore.withdraw). */
  async removeByActor(actorId: string): Promise<void> {
    const rows = await this.entries.find({ actorId, kind: { $in: WITHDRAWN_KINDS } }, { fields: [] });
    for (const r of rows) await this.remove(r._id);
  }

  /** Entries holding `term` (optionally of one kind), newest first, at most `limit`. */
  async withTerm(term: string, kind: SearchKind | undefined, limit: number): Promise<SearchEntry[]> {
    const kinds = kind ? [kind] : SEARCH_KINDS;
    const ids = this.rows
      ? await this.rows.find(term, kinds, limit)
      : await this.findByTerm!({ term, within: kinds, limit });
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
