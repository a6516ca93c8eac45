/**
 * `visibleFilter` against the real database (FerretDB in the test run, MongoDB 7 with
 * TEST_PROVIDER=containers): one document per audience tier of the table in
 * libs/common/src/audience/audience.fixtures.ts, then for each viewer the filter must return
 * exactly the tiers the table says that viewer reads. So the query and `canSee` (tested on the
 * same table) cannot drift apart, and a filter that is merely well-formed cannot pass.
 */
import mongoose, { type Connection } from 'mongoose';
import { visibleFilter } from '@agora/common/audience';
import { DOMAIN, OWNER, READ_TABLE, VIEWER_NAMES, VIEWERS } from '@agora/common/audience/fixtures';
import { mongoUrlFor, uniqueName } from '../../harness/env';

let conn: Connection;
const docs = () => conn.db!.collection<{ tier: string }>('audience_probe');

beforeAll(async () => {
  conn = await mongoose.createConnection(mongoUrlFor(uniqueName('audience'))).asPromise();
  await docs().insertMany(
    READ_TABLE.map((row) => ({
      tier: row.tier,
      to: row.to,
      actorId: OWNER,
      deletedAt: row.deleted ? new Date() : null,
    })),
  );
});
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

test.each(VIEWER_NAMES)('visibleFilter for %s returns exactly the tiers it may read', async (name) => {
  const found = await docs()
    .find(visibleFilter(VIEWERS[name], DOMAIN), { projection: { tier: 1 } })
    .toArray();
  const expected = READ_TABLE.filter((row) => row.sees.includes(name)).map((row) => row.tier);
  expect(found.map((d) => d.tier).sort()).toEqual([...expected].sort());
});
