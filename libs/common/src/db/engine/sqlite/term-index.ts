/**
 * Term indexes on SQLite (port.ts `TermIndexSpec`, ADR 0033): one FTS5 row per document, kept by
 * triggers on the collection's table, so every write of a document changes its index row in the
 * same transaction and statement, whatever the write (insert, update, delete, clear, a restore's
 * staging inserts). The collection code knows nothing of it.
 *
 * - Table `<collection>$terms`: `fts5(tokens, id UNINDEXED)`. A `$` is in no collection name, so
 *   `names()` leaves these (and FTS5's `_data`, `_idx`, ... shadow tables) out of backups and copies.
 * - Tokens: every term, qualified by the `within` field, is spelled `hex(within) x hex(term)` (the
 *   UTF-8 bytes): letters and digits only, one token for the `ascii` tokenizer whatever the term
 *   holds (punctuation, `#`, any script), and a query is a list of quoted such tokens, which no
 *   input can turn into FTS5 syntax. `detail=none`: no positions, a term is a whole token.
 * - Order: the rowid is `ms * 2^16 + slot`, `ms` the `newest` date in milliseconds (held to
 *   2^47, the year 6429; a date SQLite cannot read, outside the years 0–9999, counts as 1970)
 *   and `slot` the next free one of that millisecond. FTS5 reads a
 *   term's documents in rowid order, so "newest first, at most n" reads n rows of the index and
 *   stops, however many hold the term; ties on the millisecond are ordered by id here.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { checkPath } from '../documents';
import { PortUsageError, type CollectionSpec, type TermIndexSpec, type TermQuery } from '../port';
import { quoteName } from './sql';
import { Statements } from './statements';

const SLOT_BITS = 16;
const SLOTS = 2 ** SLOT_BITS;
const MAX_MS = 2 ** 47 - 1;
const MIN_MS = -(2 ** 47);

/** The FTS5 table of a collection's term index. */
export const termTableOf = (collection: string) => `${collection}$terms`;

/** A term index's table or one of FTS5's shadow tables: not a collection. */
export const isTermIndexTable = (name: string) => name.includes('$');

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

/** The quoted FTS5 token of one term of one `within` value. */
export const tokenOf = (within: string, term: string) => `"${hex(within)}x${hex(term)}"`;

/** The SQL expressions of one document (`doc`: NEW.doc, OLD.doc or a column). */
function exprs(ix: TermIndexSpec, doc: string) {
  const path = (p: string) => `'$.${checkPath(p)}'`;
  const ms =
    `min(max(coalesce(CAST(round((julianday(${doc} ->> ${path(ix.newest)}) - 2440587.5) * 86400000) ` +
    `AS INTEGER), 0), ${MIN_MS}), ${MAX_MS})`;
  return {
    ms,
    tokens:
      `(SELECT group_concat(hex(${doc} ->> ${path(ix.within)}) || 'x' || hex(value), ' ') ` +
      `FROM json_each(${doc}, ${path(ix.terms)}))`,
    changed:
      `(OLD.doc -> ${path(ix.terms)}) IS NOT (NEW.doc -> ${path(ix.terms)}) OR ` +
      `(OLD.doc ->> ${path(ix.within)}) IS NOT (NEW.doc ->> ${path(ix.within)}) OR ` +
      `(OLD.doc ->> ${path(ix.newest)}) IS NOT (NEW.doc ->> ${path(ix.newest)}) OR OLD._id IS NOT NEW._id`,
  };
}

function triggersSql(spec: CollectionSpec, ix: TermIndexSpec): string[] {
  const table = quoteName(spec.name);
  const fts = termTableOf(spec.name);
  const name = (op: string) => quoteName(`${fts}_${op}`);
  const neu = exprs(ix, 'NEW.doc');
  const old = exprs(ix, 'OLD.doc');
  const bucket = (ms: string) => `rowid BETWEEN (${ms}) * ${SLOTS} AND (${ms}) * ${SLOTS} + ${SLOTS - 1}`;
  const top = `(SELECT max(rowid) FROM ${quoteName(fts)} WHERE ${bucket(neu.ms)})`;
  const insert =
    `SELECT RAISE(ABORT, 'term index: more than ${SLOTS} documents at one millisecond') ` +
    `WHERE ${top} = (${neu.ms}) * ${SLOTS} + ${SLOTS - 1}; ` +
    `INSERT INTO ${quoteName(fts)} (rowid, tokens, id) ` +
    `VALUES (coalesce(${top} + 1, (${neu.ms}) * ${SLOTS}), ${neu.tokens}, NEW._id);`;
  const remove = `DELETE FROM ${quoteName(fts)} WHERE ${bucket(old.ms)} AND id = OLD._id;`;
  return [
    `CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${table} BEGIN ${insert} END`,
    `CREATE TRIGGER ${name('update')} AFTER UPDATE ON ${table} WHEN ${neu.changed} BEGIN ${remove} ${insert} END`,
    `CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${table} BEGIN ${remove} END`,
  ];
}

export class SqliteTermIndexes {
  private readonly statements: Statements;

  constructor(private readonly db: DatabaseSync) {
    this.statements = new Statements(db);
  }

  private prepare(sql: string): StatementSync {
    return this.statements.get(sql);
  }

  private exists(table: string): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  }

  /**
   * Inside `ensure`'s transaction, after the collection's table: the term index the spec declares
   * (created and filled from the table when new), its triggers written afresh (a renamed table's
   * carry its old names), or none (a term index no longer declared goes, as indexes do).
   */
  ensure(spec: CollectionSpec): void {
    const triggers = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?")
      .all(spec.name) as Array<{ name: string }>;
    for (const t of triggers) this.db.exec(`DROP TRIGGER ${quoteName(t.name)}`);
    const fts = termTableOf(spec.name);
    const ix = spec.termIndex;
    if (!ix) {
      if (this.exists(fts)) this.db.exec(`DROP TABLE ${quoteName(fts)}`);
      return;
    }
    const fresh = !this.exists(fts);
    if (fresh)
      this.db.exec(
        `CREATE VIRTUAL TABLE ${quoteName(fts)} USING fts5(tokens, id UNINDEXED, ` +
          `tokenize = 'ascii', detail = none, columnsize = 0)`,
      );
    // A trigger of the same name left on a retired copy of the table (a restore's swap).
    for (const op of ['insert', 'update', 'delete'])
      this.db.exec(`DROP TRIGGER IF EXISTS ${quoteName(`${fts}_${op}`)}`);
    for (const sql of triggersSql(spec, ix)) this.db.exec(sql);
    if (fresh) this.fill(spec, ix);
  }

  /** Every document of the table into a new (empty) index: slots by id within a millisecond. */
  private fill(spec: CollectionSpec, ix: TermIndexSpec): void {
    const e = exprs(ix, 'doc');
    this.db.exec(
      `INSERT INTO ${quoteName(termTableOf(spec.name))} (rowid, tokens, id) ` +
        `SELECT ms * ${SLOTS} + slot, tokens, _id FROM (SELECT _id, ${e.ms} AS ms, ${e.tokens} AS tokens, ` +
        `row_number() OVER (PARTITION BY ${e.ms} ORDER BY _id) - 1 AS slot ` +
        `FROM ${quoteName(spec.name)}) WHERE slot < ${SLOTS}`,
    );
  }

  /**
   * Statements as one: a savepoint, so this holds inside a transaction already open on the
   * connection (a batch of writes) as well as outside one.
   */
  private atomically(fn: () => void): void {
    this.db.exec('SAVEPOINT term_index');
    try {
      fn();
      this.db.exec('RELEASE term_index');
    } catch (err) {
      this.db.exec('ROLLBACK TO term_index; RELEASE term_index');
      throw err;
    }
  }

  /** `engine.rename`: the table and its term index move together (its triggers follow). */
  rename(from: string, to: string): void {
    this.atomically(() => {
      this.db.exec(`ALTER TABLE ${quoteName(from)} RENAME TO ${quoteName(to)}`);
      if (this.exists(termTableOf(from))) {
        this.db.exec(`DROP TABLE IF EXISTS ${quoteName(termTableOf(to))}`);
        this.db.exec(`ALTER TABLE ${quoteName(termTableOf(from))} RENAME TO ${quoteName(termTableOf(to))}`);
      }
    });
  }

  /** `engine.drop`: the table (its triggers go with it) and its term index. */
  drop(name: string): void {
    this.atomically(() => {
      this.db.exec(`DROP TABLE IF EXISTS ${quoteName(name)}`);
      this.db.exec(`DROP TABLE IF EXISTS ${quoteName(termTableOf(name))}`);
    });
  }

  /**
   * The newest `limit` ids holding the term: `limit` rows read newest first, then the rest of the
   * last row's millisecond, so that ties there are ordered by id as on every engine.
   */
  find(spec: CollectionSpec, q: TermQuery): string[] {
    if (!spec.termIndex) throw new PortUsageError(`${spec.name}: no term index declared`);
    const limit = Math.min(Math.max(0, Math.floor(q.limit)), Number.MAX_SAFE_INTEGER);
    if (!limit || !q.within.length) return [];
    const fts = quoteName(termTableOf(spec.name));
    const match = [...new Set(q.within)].map((w) => tokenOf(w, q.term)).join(' OR ');
    const head = `SELECT rowid >> ${SLOT_BITS} AS ms, id FROM ${fts} WHERE ${fts} MATCH ?`;
    type Row = { ms: number; id: string };
    const rows = this.prepare(`${head} ORDER BY rowid DESC LIMIT ?`).all(match, limit) as Row[];
    if (rows.length === limit) {
      const last = rows[rows.length - 1]!.ms;
      // Bound as integers: a double here makes FTS5 read the term's whole list instead of seeking.
      const params: SQLInputValue[] = [match, BigInt(last), BigInt(last)];
      const tied = this.prepare(`${head} AND rowid BETWEEN ? * ${SLOTS} AND ? * ${SLOTS} + ${SLOTS - 1}`).all(
        ...params,
      ) as Row[];
      const seen = new Set(rows.map((r) => r.id));
      rows.push(...tied.filter((r) => !seen.has(r.id)));
    }
    rows.sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return rows.slice(0, limit).map((r) => r.id);
  }
}
