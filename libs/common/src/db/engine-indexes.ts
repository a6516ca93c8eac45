/**
 * SQL indexes that let FerretDB's own `_id` pushdown use an index (ADR 0004).
 *
 * FerretDB 1.24's SQLite handler turns a filter that is exactly `{ _id: <string|ObjectId> }`
 * (and every update/delete it does by `_id`) into `WHERE _ferretdb_sjson->'$._id' = ?`, but
 * builds its unique `_id` index on `_ferretdb_sjson->"_id"`, a different expression: SQLite's
 * planner never matches the two, so every `_id` lookup scans the table. The PostgreSQL handler
 * pushes equality as `_jsonb->'_id' @> '<json>'`, which its btree index cannot serve either;
 * a GIN index on the same expression can. These functions add the index FerretDB's query
 * matches, next to FerretDB's own, on every FerretDB table. They are idempotent and must run
 * again whenever collections are (re)created: FerretDB drops a table's indexes with the table.
 * FerretDB never sees them (its index list lives in its own metadata), so `listIndexes`,
 * `dropIndexes` and `drop` behave as before.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';

/** Our index names start with this; FerretDB names its indexes `<table>_<name>`, never so. */
const PREFIX = 'agora_id_';

export interface SqliteIndexResult {
  /** The SQLite file (one per MongoDB database). */
  file: string;
  table: string;
  /** False when the index already existed. */
  created: boolean;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The expression FerretDB's SQLite handler compares `_id` with (metadata.IDColumn). */
export const SQLITE_ID_EXPRESSION = `_ferretdb_sjson->'$._id'`;

/**
 * Creates the `_id` expression index on every FerretDB table of every database file in `dir`
 * (FerretDB's `--sqlite-url` directory: one `<database>.sqlite` per MongoDB database).
 * Synchronous (node:sqlite): on a table that already has it, it costs one catalogue read; the
 * first build on a large table blocks for as long as SQLite takes to build it. `busyTimeoutMs`
 * waits for FerretDB's writers instead of failing (FerretDB itself waits 10 s).
 */
export function ensureSqliteIdIndexes(
  dir: string,
  opts: { busyTimeoutMs?: number } = {},
): SqliteIndexResult[] {
  if (!existsSync(dir)) return [];
  const results: SqliteIndexResult[] = [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
  for (const name of files) {
    const file = join(dir, name);
    // mode=rw: never create a file FerretDB has just removed (dropDatabase deletes it).
    const url = pathToFileURL(file);
    url.searchParams.set('mode', 'rw');
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(url);
    } catch {
      continue; // gone since the directory was read
    }
    try {
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(opts.busyTimeoutMs ?? 10_000))}`);
      const meta = db
        .prepare(`SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = '_ferretdb_collections'`)
        .get();
      if (!meta) continue; // not a FerretDB database file
      const tables = db.prepare('SELECT table_name AS t FROM _ferretdb_collections').all() as { t: string }[];
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).all() as {
        name: string;
      }[];
      const existing = new Set(indexes.map((r) => r.name));
      for (const { t } of tables) {
        const index = `${PREFIX}${t}`;
        if (!existing.has(index)) {
          try {
            db.exec(
              `CREATE INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${quoteIdent(t)} (${SQLITE_ID_EXPRESSION})`,
            );
          } catch (err) {
            // Dropped by FerretDB between the two reads: nothing to index.
            if (/no such table/.test((err as Error).message)) continue;
            throw err;
          }
        }
        results.push({ file, table: t, created: !existing.has(index) });
      }
    } finally {
      db.close();
    }
  }
  return results;
}

/**
 * The same for FerretDB's PostgreSQL handler, as one SQL statement to run against the
 * PostgreSQL database FerretDB uses (every MongoDB database is a schema holding a
 * `_ferretdb_database_metadata` table; every collection a table with a `_jsonb` column).
 * `database` limits it to one MongoDB database; `analyze` refreshes the planner's statistics
 * (a fresh table has none, and PostgreSQL then prefers a scan). Production has no PostgreSQL URL
 * to run it with (it uses MongoDB or the SQLite default); the test run and the bench run it
 * through psql.
 */
export function postgresIdIndexSql(
  opts: { fields?: readonly string[]; database?: string; analyze?: boolean } = {},
): string {
  const fields = opts.fields ?? ['_id'];
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/;
  if (opts.database !== undefined && !plain.test(opts.database))
    throw new Error(`not a database name: ${opts.database}`);
  for (const f of fields) {
    if (!plain.test(f)) throw new Error(`not a plain top-level field name: ${f}`);
  }
  const creates = fields
    .map(
      (f) =>
        `    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin ((_jsonb->%L))', ` +
        `'agora_${f === '_id' ? 'id' : `f_${f.toLowerCase()}`}_' || substr(md5(r.t), 1, 20), r.s, r.t, '${f}');`,
    )
    .join('\n');
  return [
    'DO $agora$',
    'DECLARE r record;',
    'BEGIN',
    '  FOR r IN',
    '    SELECT c.table_schema AS s, c.table_name AS t FROM information_schema.columns c',
    "    WHERE c.column_name = '_jsonb' AND c.table_name NOT LIKE '\\_ferretdb\\_%'",
    '      AND EXISTS (SELECT 1 FROM information_schema.tables m',
    "        WHERE m.table_schema = c.table_schema AND m.table_name = '_ferretdb_database_metadata')",
    // One MongoDB database is one schema: limiting it keeps clear of other databases' DDL.
    ...(opts.database ? [`      AND c.table_schema = '${opts.database}'`] : []),
    '  LOOP',
    creates,
    ...(opts.analyze ? [`    EXECUTE format('ANALYZE %I.%I', r.s, r.t);`] : []),
    '  END LOOP;',
    'END',
    '$agora$;',
  ].join('\n');
}
