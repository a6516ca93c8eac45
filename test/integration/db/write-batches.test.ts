/**
 * Large bulk writes on the real FerretDB through `connectDatabase`: FerretDB 1.24 never answers
 * a bulk update or delete of 100 operations or more, so the connection caps the driver's commands
 * at FERRETDB_WRITE_BATCH operations. Bulks of 150 updates, deletes and inserts complete, each
 * op counted once, and an error in a later command keeps its index in the whole bulk.
 */
import { FERRETDB_WRITE_BATCH } from '@agora/common/db';
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_write_batches', 'batches.test', { query: 'monitorCommands=true' });
const sizes: Array<{ name: string; n: number }> = [];

beforeAll(() => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) => {
      const ops = e.command.updates ?? e.command.deletes ?? e.command.documents;
      if (Array.isArray(ops)) sizes.push({ name: e.commandName, n: ops.length });
    });
});

const N = 150;
const ids = Array.from({ length: N }, (_, i) => `b${String(i).padStart(3, '0')}`);

test('150 inserts, updates and deletes in one call each complete, in commands of the cap', async () => {
  const c = t.db.conn.db!.collection<{ _id: string; v: number }>('batched');
  sizes.length = 0;
  expect((await c.insertMany(ids.map((_id) => ({ _id, v: 0 })))).insertedCount).toBe(N);
  const updated = await c.bulkWrite(
    ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $inc: { v: 1 } } } })),
    { ordered: false },
  );
  expect(updated.modifiedCount).toBe(N);
  expect(await c.countDocuments({ v: 1 })).toBe(N);
  const deleted = await c.bulkWrite(
    ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
  expect(deleted.deletedCount).toBe(N);
  expect(sizes.length).toBeGreaterThanOrEqual(9); // 3 calls, at least 3 commands each
  for (const s of sizes) expect(s.n).toBeLessThanOrEqual(FERRETDB_WRITE_BATCH);
});

test('an error in a later command of an unordered bulk names its index in the whole bulk', async () => {
  const c = t.db.conn.db!.collection<{ _id: string }>('batched_errors');
  await c.insertOne({ _id: ids[120]! });
  const err = (await c
    .insertMany(
      ids.map((_id) => ({ _id })),
      { ordered: false },
    )
    .catch((e: unknown) => e)) as {
    writeErrors?: Array<{ index: number; code: number }> | { index: number; code: number };
    insertedCount?: number;
  };
  const errors = Array.isArray(err.writeErrors) ? err.writeErrors : err.writeErrors ? [err.writeErrors] : [];
  expect(errors.map((e) => [e.index, e.code])).toEqual([[120, 11000]]);
  expect(await c.countDocuments({})).toBe(N);
});
