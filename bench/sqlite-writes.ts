/**
 * What one write costs on the embedded engine (the SQLite adapter over node:sqlite, through the
 * engine port as the stores use it), and what batching does to it: inserts and `$inc` updates by
 * `_id` one at a time, the same updates issued all at once, and one `updateEach` of them all,
 * with SQLite's `synchronous` at `full` and `normal` (EMBEDDED_DB_SYNC), and at `normal` with the
 * WAL checkpoints on a thread as the servers run them (ADR 0019), alternating rounds.
 * Wall time per write and main-thread CPU per write (process.threadCpuUsage).
 *
 *   node --import tsx bench/sqlite-writes.ts [rounds=2] [ops=2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type CollectionSpec } from '@agora/common/db/engine';
import { median } from './load';

const rounds = Number(process.argv[2] ?? 2);
const ops = Number(process.argv[3] ?? 2000);

const SPEC: CollectionSpec = {
  name: 'bench_writes',
  indexes: [
    {
      fields: [
        ['group', 1],
        ['v', -1],
      ],
      serves: 'a second index, as the stores keep',
    },
  ],
};

type Row = { _id: string; group: string; v: number; text: string };

const VARIANTS = {
  full: { synchronous: 'full' },
  normal: { synchronous: 'normal' },
  'normal, checkpoints on a thread': { synchronous: 'normal', checkpoints: 'thread' },
} as const;
type Variant = keyof typeof VARIANTS;

async function once(variant: Variant) {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-writes-'));
  const engine = openSqlite({ path: join(dir, 'bench.db'), ...VARIANTS[variant] });
  await engine.ensure([SPEC]);
  const col = engine.collection<Row>(SPEC);
  const text = 'hello world '.repeat(20);
  const timed = async (fn: () => Promise<unknown>) => {
    const cpu = process.threadCpuUsage();
    const t = performance.now();
    await fn();
    const used = process.threadCpuUsage(cpu);
    return { wall: (performance.now() - t) / ops, cpu: (used.user + used.system) / 1000 / ops };
  };
  const insert = await timed(async () => {
    for (let i = 0; i < ops; i++) await col.insertOne({ _id: `d${i}`, group: `g${i % 20}`, v: i, text });
  });
  const update = await timed(async () => {
    for (let i = 0; i < ops; i++) await col.updateOne({ _id: `d${i}` }, { $inc: { v: 1 } });
  });
  const concurrent = await timed(() =>
    Promise.all(Array.from({ length: ops }, (_, i) => col.updateOne({ _id: `d${i}` }, { $inc: { v: 1 } }))),
  );
  const each = await timed(() =>
    col.updateEach(
      Array.from({ length: ops }, (_, i) => ({ filter: { _id: `d${i}` }, update: { $inc: { v: 1 } } })),
    ),
  );
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
  return { insert, update, concurrent, each };
}

async function main(): Promise<void> {
  const names = Object.keys(VARIANTS) as Variant[];
  const results = Object.fromEntries(names.map((n) => [n, []])) as unknown as Record<
    Variant,
    Array<Awaited<ReturnType<typeof once>>>
  >;
  for (let r = 0; r < rounds; r++)
    for (const s of r % 2 ? [...names].reverse() : names) results[s].push(await once(s));
  console.log(
    `| synchronous | insertOne | updateOne (one at a time) | ${ops} updateOne at once | one updateEach of ${ops} |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [s, rs] of Object.entries(results)) {
    const m = (k: 'insert' | 'update' | 'concurrent' | 'each') =>
      `${median(rs.map((x) => x[k].wall)).toFixed(3)} (cpu ${median(rs.map((x) => x[k].cpu)).toFixed(3)})`;
    console.log(`| ${s} | ${m('insert')} | ${m('update')} | ${m('concurrent')} | ${m('each')} |`);
  }
  console.log('(ms per write, wall (main-thread CPU), median of rounds)');
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
