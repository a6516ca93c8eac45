/**
 * FerretDB loses concurrent updates between processes (ADR 0013), so a service that opens its
 * database there takes the sole-writer lease: a second one on the same database refuses to
 * start, naming why, and may start once the first has closed.
 */
import { openDatabase, type Database } from '@agora/common/db';
import { FerretDBShared } from '@agora/common/db/engine';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
const open = (url: string) => openDatabase({ logger, mongoUrl: url, sqlitePath: '/nonexistent/unused.db' });

describe('a service on FerretDB', () => {
  const url = mongoUrlFor(uniqueName('lease'));
  let first: Database | undefined;

  afterAll(async () => {
    await first?.conn?.db?.dropDatabase();
    await first?.close();
  });

  it('holds the database alone: a second service is refused until the first closes', async () => {
    first = await open(url);
    const second = open(url);
    await expect(second).rejects.toBeInstanceOf(FerretDBShared);
    await expect(second).rejects.toThrow(/loses concurrent updates between processes/);

    await first.close();
    first = await open(url);
    expect(await first.ping()).toBe(true);
  });
});
