/**
 * The embedded FerretDB (SQLite handler) with the `_id` expression indexes of ADR 0004: FerretDB's
 * own `_id` queries plan through them, FerretDB keeps working (CRUD, drop and recreate), and a
 * recreated collection gets its index back on the next call.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import mongoose from 'mongoose';
import { spawnFerretDB, SQLITE_ID_EXPRESSION, type FerretProcess } from '@agora/common/db';
import { testEnv } from '../../harness/env';

let dir: string;
let ferret: FerretProcess;
let conn: mongoose.Connection;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-sqlite-idx-'));
  ferret = await spawnFerretDB({ bin: testEnv.ferretdbBin, dataDir: dir });
  conn = await mongoose.createConnection(`${ferret.url}idx`).asPromise();
});

afterAll(async () => {
  await conn?.close();
  await ferret?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function reconnectAfterRestart(): Promise<void> {
  await conn.close();
  await ferret.stop();
  await ferret.restart();
  conn = await mongoose.createConnection(`${ferret.url}idx`).asPromise();
}

const col = (name: string) => conn.db!.collection<{ _id: string; n?: number; tag?: string }>(name);

/**
 * FerretDB's own EXPLAIN: it runs `EXPLAIN QUERY PLAN` on the SQL it would send. EXPLAIN never
 * opens a read transaction, so a pooled SQLite connection answers it from the schema it cached
 * before the index existed (real queries re-check the schema and do use it); the test restarts
 * FerretDB before asking so every connection is fresh.
 */
async function ferretPlan(name: string, filter: Record<string, unknown>): Promise<string> {
  const res = await conn.db!.command({ explain: { find: name, filter }, verbosity: 'queryPlanner' });
  return JSON.stringify(res.queryPlanner);
}

/** The same question asked of SQLite directly, with FerretDB's pushdown SQL. */
function sqlitePlan(table: string): string {
  const db = new DatabaseSync(join(dir, 'idx.sqlite'));
  try {
    const rows = db
      .prepare(`EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM "${table}" WHERE ${SQLITE_ID_EXPRESSION} = ?`)
      .all('"p:1"') as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}

test('FerretDB answers _id filters through the expression index once it exists, and still works', async () => {
  await col('posts').insertMany(
    Array.from({ length: 50 }, (_, i) => ({ _id: `p:${i}`, n: i, tag: `t${i % 5}` })),
  );
  expect(await ferretPlan('posts', { _id: 'p:7' })).not.toContain('USING INDEX agora_id_');

  const first = ferret.ensureIdIndexes();
  const posts = first.find((r) => r.table.startsWith('posts'));
  expect(posts).toMatchObject({ created: true, file: join(dir, 'idx.sqlite') });
  expect(ferret.ensureIdIndexes().every((r) => !r.created)).toBe(true); // idempotent

  expect(sqlitePlan(posts!.table)).toContain(`USING INDEX agora_id_${posts!.table}`);
  await reconnectAfterRestart();
  expect(await ferretPlan('posts', { _id: 'p:7' })).toContain(`USING INDEX agora_id_${posts!.table}`);

  // CRUD through FerretDB, by _id and otherwise, gives the same answers as before.
  expect(await col('posts').findOne({ _id: 'p:7' })).toEqual({ _id: 'p:7', n: 7, tag: 't2' });
  await col('posts').updateOne({ _id: 'p:7' }, { $inc: { n: 100 } });
  await col('posts').updateOne({ _id: 'p:new' }, { $set: { n: -1 } }, { upsert: true });
  await col('posts').insertOne({ _id: 'p:ins', n: 0 });
  await col('posts').deleteOne({ _id: 'p:8' });
  expect((await col('posts').findOne({ _id: 'p:7' }))?.n).toBe(107);
  expect(await col('posts').findOne({ _id: 'p:8' })).toBeNull();
  expect(await col('posts').countDocuments({ tag: 't3' })).toBe(9); // p:8 was a t3
  expect(
    await col('posts')
      .find({ _id: { $in: ['p:new', 'p:ins'] } })
      .toArray(),
  ).toHaveLength(2);
  await expect(col('posts').insertOne({ _id: 'p:1' })).rejects.toThrow(/duplicate key/);
  // FerretDB lists only its own indexes: ours is invisible to clients.
  expect((await col('posts').indexes()).map((i) => i.name)).toEqual(['_id_']);
  await col('posts').createIndex({ tag: 1 });
  await col('posts').dropIndex('tag_1');
});

test('a dropped and recreated collection works and gets its index back on the next call', async () => {
  await col('again').insertOne({ _id: 'a:1' });
  ferret.ensureIdIndexes();
  await col('again').drop();
  await col('again').insertOne({ _id: 'a:2', n: 2 });
  expect(await col('again').findOne({ _id: 'a:2' })).toEqual({ _id: 'a:2', n: 2 });
  const again = ferret.ensureIdIndexes().find((r) => r.table.startsWith('again'));
  expect(again?.created).toBe(true);
  expect(sqlitePlan(again!.table)).toContain(`USING INDEX agora_id_${again!.table}`);
  expect(await col('again').findOne({ _id: 'a:2' })).toEqual({ _id: 'a:2', n: 2 });
  await conn.db!.dropDatabase();
  expect(ferret.ensureIdIndexes().filter((r) => r.file.endsWith('idx.sqlite'))).toEqual([]);
  // FerretDB removed the database's file; indexing must not bring an empty one back.
  expect(existsSync(join(dir, 'idx.sqlite'))).toBe(false);
});
