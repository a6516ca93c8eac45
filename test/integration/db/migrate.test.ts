/**
 * Start-up migration (ADR 0005) on the real FerretDB: a document keyed by an ObjectId (a database
 * written before ADR 0005) gets its string key and its derived rows; once the migration ran to
 * the end it is recorded, and later starts skip its search for work (a scan of every collection
 * on FerretDB) — a database restored without that record is searched again.
 */
import mongoose from 'mongoose';
import { MIGRATION_ID } from '@agora/common/db';
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_migrate', 'migrate.test');

const oldGroup = (name: string) => ({
  _id: new mongoose.Types.ObjectId(),
  id: `group:${name}@migrate.test`,
  name,
  actorId: '@owner@migrate.test',
  deletedAt: null,
});

test('an ObjectId-keyed document is moved once; the finished migration is recorded and not searched for again', async () => {
  await t.models.Group.collection.insertOne(oldGroup('oldgroup'));
  await t.repos.prepare(t.logger);
  const moved = await t.models.Group.collection.findOne({ _id: 'group:oldgroup@migrate.test' as never });
  expect(moved?.name).toBe('oldgroup');
  expect(await t.models.Group.collection.countDocuments({ name: 'oldgroup' })).toBe(1);
  expect(await t.models.Migration.exists({ _id: MIGRATION_ID })).toBeTruthy();

  // Recorded: a second start does not search (this document would have been moved otherwise).
  await t.models.Group.collection.insertOne(oldGroup('later'));
  await t.repos.prepare(t.logger);
  expect(await t.models.Group.collection.findOne({ _id: 'group:later@migrate.test' as never })).toBeNull();

  // Without the record (a restore of an archive that predates it), the search runs again.
  await t.models.Migration.deleteOne({ _id: MIGRATION_ID });
  await t.repos.prepare(t.logger);
  expect((await t.models.Group.collection.findOne({ _id: 'group:later@migrate.test' as never }))?.name).toBe(
    'later',
  );
});
