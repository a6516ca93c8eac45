/**
 * Runs the PostgreSQL-handler variant of the embedded engine's `_id` indexes (ADR 0004) against
 * the PostgreSQL database behind the run's FerretDB, through psql (the test run already uses it
 * to create that database; no PostgreSQL client library is a dependency).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { postgresIdIndexSql } from '@agora/common/db';

const run = promisify(execFile);

/** The PostgreSQL database behind TEST_MONGO_URL's FerretDB (scripts/infra/run-services.sh). */
export const testPostgresUrl = process.env.TEST_POSTGRES_URL;

export async function psql(url: string, sql: string): Promise<string> {
  const { stdout } = await run('psql', ['-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', url, '-c', sql]);
  return stdout;
}

/** GIN indexes on `_jsonb->'<field>'` (default `_id`) for every table of one MongoDB database, then ANALYZE. */
export async function ensurePostgresIdIndexes(
  url: string,
  database: string,
  fields: readonly string[] = ['_id'],
): Promise<void> {
  await psql(url, postgresIdIndexSql({ fields, database, analyze: true }));
}
