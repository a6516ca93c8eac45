/**
 * The SQLite adapter commits the writes of one turn of the event loop together (ADR 0036,
 * engine/sqlite/batch.ts): a write is acknowledged only once committed, so another connection
 * sees it from then on; a failed write of the turn takes back only its own changes; statements
 * that run outside a transaction (ensure, rename, drop, close) first commit what the turn wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuplicateKeyError, openSqlite, type Doc, type Engine } from '@agora/common/db/engine';

interface Item extends Doc {
  n: number;
}

const dir = mkdtempSync(join(tmpdir(), 'batch-'));
const path = join(dir, 'agora.db');
const SPEC = { name: 'items', indexes: [{ fields: [['n', 1]] as const, serves: 'items by number' }] };
let writer: Engine;
let reader: Engine;

beforeAll(async () => {
  writer = openSqlite({ path, checkIndexes: true });
  await writer.ensure([SPEC]);
  reader = openSqlite({ path });
});
afterAll(async () => {
  await writer.close();
  await reader.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => writer.collection(SPEC).clear());

const items = (e: Engine) => e.collection<Item>(SPEC);

test('a write is seen by another connection once acknowledged, not before', async () => {
  const written = items(writer).insertOne({ _id: 'a', n: 1 });
  // Same turn: the writer's transaction is still open, so the other connection reads the last commit.
  const before = items(reader).count({});
  expect(await before).toBe(0);
  await written;
  expect(await items(reader).count({})).toBe(1);
});

test('a failed write of a turn takes back only its own changes', async () => {
  await items(writer).insertOne({ _id: 'taken', n: 0 });
  const results = await Promise.allSettled([
    items(writer).insertOne({ _id: 'b', n: 2 }),
    items(writer).insertMany([
      { _id: 'c', n: 3 },
      { _id: 'taken', n: 9 },
    ]),
    items(writer).updateOne({ _id: 'taken' }, { $inc: { n: 5 } }),
    items(writer).insertOne({ _id: 'taken', n: 7 }),
    items(writer).insertOne({ _id: 'd', n: 4 }),
  ]);
  expect(results.map((r) => r.status)).toEqual([
    'fulfilled',
    'rejected',
    'fulfilled',
    'rejected',
    'fulfilled',
  ]);
  expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
  expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
  // Read from the other connection: everything acknowledged is committed, nothing else.
  const all = await items(reader).find({}, { sort: [['_id', 1]] });
  expect(all).toEqual([
    { _id: 'b', n: 2 },
    // insertMany is ordered: the document before the duplicate stays (as on MongoDB).
    { _id: 'c', n: 3 },
    { _id: 'd', n: 4 },
    { _id: 'taken', n: 5 },
  ]);
});

test('many writes of one turn, each acknowledged, all committed', async () => {
  const writes = Array.from({ length: 200 }, (_, i) =>
    i % 2 ? items(writer).insertOne({ _id: `i${i}`, n: i }) : items(writer).deleteMany({ n: i }),
  );
  await Promise.all(writes);
  expect(await items(reader).count({})).toBe(100);
  expect(await items(reader).count({ n: { $gte: 100 } })).toBe(50);
});

test('ensure, rename and drop commit the turn’s writes first and go on', async () => {
  const extra = { name: 'extra_items', indexes: [] };
  const first = items(writer).insertOne({ _id: 'e', n: 5 });
  const ensured = writer.ensure([SPEC, extra]);
  const second = items(writer).insertOne({ _id: 'f', n: 6 });
  await Promise.all([first, ensured, second]);
  await writer.collection(extra).insertOne({ _id: 'x' });
  const moved = writer.collection(extra).insertOne({ _id: 'y' });
  await Promise.all([moved, writer.rename('extra_items', 'moved_items')]);
  expect(await reader.collection({ name: 'moved_items', indexes: [] }).count({})).toBe(2);
  await writer.drop('moved_items');
  expect(await items(reader).count({})).toBe(2);
});

test('a close commits what the turn wrote', async () => {
  const other = openSqlite({ path });
  void other.collection<Item>(SPEC).insertOne({ _id: 'last', n: 9 });
  await other.close();
  expect(await items(reader).findOne({ _id: 'last' })).toEqual({ _id: 'last', n: 9 });
});

test('two connections of one process on one file write in one turn without waiting for each other', async () => {
  const second = openSqlite({ path, busyTimeoutMs: 10_000 });
  try {
    const started = Date.now();
    // Each connection's first write would wait for the other's open transaction (and block the
    // event loop that would commit it) if the first were not committed before the second begins.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => items(i % 2 ? second : writer).insertOne({ _id: `p${i}`, n: i })),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await items(reader).count({ n: { $gte: 0 } })).toBe(20);
  } finally {
    await second.close();
  }
});

test('a write issued while the connection closes is refused, and nothing crashes', async () => {
  const other = openSqlite({ path });
  await items(other).insertOne({ _id: 'before', n: 1 });
  const closing = other.close();
  await expect(items(other).insertOne({ _id: 'late', n: 2 })).rejects.toThrow(/closed/);
  await closing;
  await new Promise((resolve) => setImmediate(resolve));
  expect(await items(reader).findOne({ _id: 'late' })).toBeNull();
  expect(await items(reader).findOne({ _id: 'before' })).toEqual({ _id: 'before', n: 1 });
});
