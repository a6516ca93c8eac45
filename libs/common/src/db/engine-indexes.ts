/**
 * FerretDB 1.24's PostgreSQL handler pushes an equality down as `_jsonb->'field' @> '<json>'`,
 * which its own btree indexes cannot serve; a GIN index on the same expression can. The test run
 * and the benches add them to the FerretDB database behind the MongoDB adapter's tests, so those
 * tests do not scan (a matter of test speed only: production is MongoDB or SQLite).
 */
/**
 * GIN indexes for FerretDB's PostgreSQL handler (CI's stand-in for MongoDB: ADR 0001), as one
 * SQL statement to run against the
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
