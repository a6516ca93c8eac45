/**
 * Appends racing to create one list on the real FerretDB, as when the notifications consumer
 * handles two events for one recipient side by side (the processes tier logged it: E11000 on
 * `list_heads`, then a retry of the whole message). MongoDB 4.2+ retries an `_id` upsert that
 * lost the insert race; FerretDB answers E11000, which must not fail the append.
 *
 * Not asserted here: the head's counters. FerretDB 1.24 on PostgreSQL applies concurrent updates
 * of one document as read-modify-write (measured: 8 concurrent `$inc` by findOneAndUpdate on one
 * document left +1), so exact counts under concurrency hold on MongoDB only.
 */
import mongoose from 'mongoose';
import { ListStore, registerModels } from '@agora/common/db';
import { mongoUrlFor, uniqueName } from '../../harness/env';

let conn: mongoose.Connection;
let lists: ListStore;

beforeAll(async () => {
  conn = await mongoose.createConnection(mongoUrlFor(uniqueName('lists'))).asPromise();
  const models = registerModels(conn);
  await Promise.all([models.ListHead.createCollection(), models.ListBucket.createCollection()]);
  lists = new ListStore(models.ListHead, models.ListBucket);
});

afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

test('appends racing to create one list all succeed', async () => {
  const at = Date.parse('2026-01-01T00:00:00Z');
  for (let round = 0; round < 5; round += 1) {
    const key = `race:${round}`;
    const entries = Array.from({ length: 8 }, (_, i) => ({ id: `e${i}`, at: new Date(at + i * 1000) }));
    const results = await Promise.allSettled(entries.map((e) => lists.append(key, [e], ['public'])));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await lists.head(key)).count).toBeGreaterThan(0);
  }
});
