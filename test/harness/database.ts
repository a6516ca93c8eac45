/**
 * A database of its own for one integration test file: SQLite in a file of its own (the default
 * engine), or the MongoDB adapter on the suite's FerretDB in a database of its own (`engine:
 * 'mongodb'`, for tests of that adapter's commands); opened with the stores before the file's
 * tests, removed after them.
 */
import {
  connectDatabase,
  createStores,
  openDatabase,
  STORE_SPECS,
  type Database,
  type Stores,
} from '@agora/common/db';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from './env';

export interface TestDatabase {
  db: Database;
  repos: Stores;
  logger: Logger;
}

/** Call at the top of a test file; the fields are set once `beforeAll` has run. */
export function useTestDatabase(
  name: string,
  domain: string,
  opts: { query?: string; engine?: 'sqlite' | 'mongodb' } = {},
): TestDatabase {
  const t = { logger: createLogger({ level: 'silent', service: 'test' }) } as TestDatabase;
  let dir: string | undefined;
  beforeAll(async () => {
    if (opts.engine === 'mongodb') {
      const url = `${mongoUrlFor(uniqueName(name))}${opts.query ? `?${opts.query}` : ''}`;
      t.db = await connectDatabase({ url, logger: t.logger, checkIndexes: true });
    } else {
      dir = mkdtempSync(join(tmpdir(), `${name}-`));
      t.db = await openDatabase({ logger: t.logger, sqlitePath: join(dir, 'agora.db'), checkIndexes: true });
    }
    t.repos = createStores(t.db, domain);
    // The port's collections and indexes (social's start does this through repos.prepare).
    await t.db.engine.ensure(STORE_SPECS);
  });
  afterAll(async () => {
    await t.db?.conn?.db?.dropDatabase();
    await t.db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return t;
}
