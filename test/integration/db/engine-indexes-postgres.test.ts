/**
 * FerretDB's PostgreSQL handler (the test run's database) with the GIN expression indexes of
 * ADR 0004: FerretDB pushes `{ field: value }` down as `_jsonb->'field' @> '<json>'`, which
 * its own btree indexes cannot serve and a GIN index on `(_jsonb->'field')` can.
 * Needs TEST_POSTGRES_URL (scripts/infra/run-services.sh); the containers provider runs MongoDB
 * instead of FerretDB/PostgreSQL, so jest.config.js leaves this file out there.
 */
import mongoose from 'mongoose';
import { mongoUrlFor, uniqueName } from '../../harness/env';
import { ensurePostgresIdIndexes, testPostgresUrl } from '../../harness/postgres-indexes';

if (!testPostgresUrl) throw new Error('TEST_POSTGRES_URL is not set: run through npm test');
const pgUrl = testPostgresUrl;
const database = uniqueName('pgidx');
let conn: mongoose.Connection;

beforeAll(async () => {
  conn = await mongoose.createConnection(mongoUrlFor(database)).asPromise();
});
afterAll(async () => {
  await conn?.db?.dropDatabase();
  await conn?.close();
});

const plan = async (filter: Record<string, unknown>) =>
  JSON.stringify((await conn.db!.command({ explain: { find: 'posts', filter } })).queryPlanner);

test('equality on _id (and a chosen field) plans through the GIN indexes, and FerretDB still works', async () => {
  const posts = conn.db!.collection<{ _id: string; actorId: string; n: number }>('posts');
  await posts.insertMany(
    Array.from({ length: 3000 }, (_, i) => ({ _id: `p:${i}`, actorId: `u${i % 300}`, n: i })),
  );
  expect(await plan({ _id: 'p:2999' })).not.toContain('agora_id_');

  await ensurePostgresIdIndexes(pgUrl, database, ['_id', 'actorId']);
  await ensurePostgresIdIndexes(pgUrl, database, ['_id', 'actorId']); // idempotent
  expect(await plan({ _id: 'p:2999' })).toContain('agora_id_');
  expect(await plan({ actorId: 'u7' })).toContain('agora_f_actorid_');

  expect(await posts.findOne({ _id: 'p:2999' })).toEqual({ _id: 'p:2999', actorId: 'u299', n: 2999 });
  expect(await posts.countDocuments({ actorId: 'u7' })).toBe(10);
  await posts.updateOne({ _id: 'p:5' }, { $inc: { n: 1 } });
  await posts.updateOne({ _id: 'p:new' }, { $set: { actorId: 'u7', n: 0 } }, { upsert: true });
  expect(await posts.countDocuments({ actorId: 'u7' })).toBe(11);
  expect((await posts.findOne({ _id: 'p:5' }))?.n).toBe(6);
  await expect(posts.insertOne({ _id: 'p:1', actorId: 'x', n: 0 })).rejects.toThrow(/duplicate key/);
  expect((await posts.indexes()).map((i) => i.name)).toEqual(['_id_']);
  await posts.drop();
  await posts.insertOne({ _id: 'p:again', actorId: 'u1', n: 1 });
  expect(await posts.findOne({ _id: 'p:again' })).toMatchObject({ n: 1 });
});
