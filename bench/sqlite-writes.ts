/**
 * What one write costs on the embedded engine (FerretDB 1.24 on SQLite), and what concurrency
 * does to it: sequential inserts and `$inc` updates by `_id`, then the same updates sent all at
 * once, with SQLite's `synchronous` at `full` and `normal` (EMBEDDED_DB_SYNC), alternating.
 *
 *   node --import tsx bench/sqlite-writes.ts [rounds=2] [ops=200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mongoose from 'mongoose';
import { spawnFerretDB } from '@agora/common/db';
import { median } from './load';

const rounds = Number(process.argv[2] ?? 2);
const ops = Number(process.argv[3] ?? 200);

async function once(sync: 'normal' | 'full') {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-writes-'));
  const f = await spawnFerretDB({ bin: resolve('.tools/bin/ferretdb'), dataDir: dir, sqliteSync: sync });
  const c = await mongoose.createConnection(`${f.url}bench`).asPromise();
  const col = c.db!.collection<{ _id: string; v: number }>('t');
  await col.insertOne({ _id: 'warm', v: 0 });
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) await col.insertOne({ _id: `d${i}`, v: i });
  const t1 = performance.now();
  for (let i = 0; i < ops; i++) await col.updateOne({ _id: `d${i}` }, { $inc: { v: 1 } });
  const t2 = performance.now();
  await Promise.all(
    Array.from({ length: ops }, (_, i) => col.updateOne({ _id: `d${i}` }, { $inc: { v: 1 } })),
  );
  const t3 = performance.now();
  await col.bulkWrite(
    Array.from({ length: ops }, (_, i) => ({
      updateOne: { filter: { _id: `d${i}` }, update: { $inc: { v: 1 } } },
    })),
    { ordered: false },
  );
  const t4 = performance.now();
  await c.close();
  await f.stop();
  rmSync(dir, { recursive: true, force: true });
  return {
    insert: (t1 - t0) / ops,
    update: (t2 - t1) / ops,
    concurrent: (t3 - t2) / ops,
    bulk: (t4 - t3) / ops,
  };
}

async function main(): Promise<void> {
  const results: Record<string, Array<Awaited<ReturnType<typeof once>>>> = { full: [], normal: [] };
  for (let r = 0; r < rounds; r++)
    for (const s of r % 2 ? (['normal', 'full'] as const) : (['full', 'normal'] as const))
      results[s]!.push(await once(s));
  console.log(
    `| synchronous | insertOne | updateOne (one at a time) | ${ops} updateOne at once | one bulkWrite of ${ops} |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [s, rs] of Object.entries(results)) {
    const m = (k: keyof (typeof rs)[number]) => median(rs.map((x) => x[k])).toFixed(2);
    console.log(`| ${s} | ${m('insert')} | ${m('update')} | ${m('concurrent')} | ${m('bulk')} |`);
  }
  console.log('(ms per write, median of rounds)');
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
