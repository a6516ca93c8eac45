/**
 * A database of its own for one integration test file, on the real FerretDB the suite runs:
 * connected (with the stores over the engine port) before the file's tests, dropped after them.
 */
import {
  connectDatabase,
  createRepositories,
  STORE_SPECS,
  type Database,
  type Repositories,
} from '@agora/common/db';
import { createLogger, type Logger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from './env';

export interface TestDatabase {
  db: Database;
  repos: Repositories;
  logger: Logger;
}

/** Call at the top of a test file; the fields are set once `beforeAll` has run. */
export function useTestDatabase(name: string, domain: string, opts: { query?: string } = {}): TestDatabase {
  const t = { logger: createLogger({ level: 'silent', service: 'test' }) } as TestDatabase;
  beforeAll(async () => {
    const url = `${mongoUrlFor(uniqueName(name))}${opts.query ? `?${opts.query}` : ''}`;
    t.db = await connectDatabase({ url, logger: t.logger, checkIndexes: true });
    t.repos = createRepositories(t.db, domain);
    // The port's collections and indexes (social's start does this through repos.prepare).
    await t.db.engine.ensure(STORE_SPECS);
  });
  afterAll(async () => {
    await t.db?.conn.db?.dropDatabase();
    await t.db?.close();
  });
  return t;
}
