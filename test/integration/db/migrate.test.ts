/**
 * Start-up migration (ADR 0005) on the real FerretDB: a document keyed by an ObjectId (a database
 * written before ADR 0005) gets its string key and its derived rows; once the migration ran to
 * the end it is recorded, and later starts skip its search for work (a scan of every collection
 * on FerretDB) — a database restored without that record is searched again.
 */
import mongoose from 'mongoose';
import {
  connectDatabase,
  createRepositories,
  MIGRATION_ID,
  registerModels,
  type Database,
  type Repositories,
} from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
let db: Database;
let repos: Repositories;
let models: ReturnType<typeof registerModels>;

beforeAll(async () => {
  db = await connectDatabase({ url: mongoUrlFor(uniqueName('it_migrate')), logger });
  repos = createRepositories(db, 'migrate.test');
  models = registerModels(db.conn);
});

afterAll(async () => {
  await db.conn.db!.dropDatabase();
  await db.close();
});

const oldUser = (username: string) => ({
  _id: new mongoose.Types.ObjectId(),
  id: `@${username}@migrate.test`,
  username,
  type: 'Person',
  deletedAt: null,
});

test('an ObjectId-keyed document is moved once; the finished migration is recorded and not searched for again', async () => {
  await models.User.collection.insertOne(oldUser('olduser'));
  await repos.prepare(logger);
  const moved = await models.User.collection.findOne({ _id: '@olduser@migrate.test' as never });
  expect(moved?.username).toBe('olduser');
  expect(await models.User.collection.countDocuments({ username: 'olduser' })).toBe(1);
  expect(await models.Migration.exists({ _id: MIGRATION_ID })).toBeTruthy();

  // Recorded: a second start does not search (this document would have been moved otherwise).
  await models.User.collection.insertOne(oldUser('later'));
  await repos.prepare(logger);
  expect(await models.User.collection.findOne({ _id: '@later@migrate.test' as never })).toBeNull();

  // Without the record (a restore of an archive that predates it), the search runs again.
  await models.Migration.deleteOne({ _id: MIGRATION_ID });
  await repos.prepare(logger);
  expect((await models.User.collection.findOne({ _id: '@later@migrate.test' as never }))?.username).toBe(
    'later',
  );
});
