/**
 * npm run bench -- --scale: the hot routes of issue 9 and 22 on the embedded default, at two
 * database sizes and for one or more checkouts side by side, on the production entry
 * (`node dist/standalone.js` of each checkout, what `npm start` runs).
 *
 * Per variant and size: the data is seeded through the variant's own code (bench/scale-data.ts;
 * `--cache=DIR` keeps seeded directories for later runs), then the server is started on it and
 * timed to ready (a restart on that many posts), its idle footprint read, the routes loaded in
 * rounds that alternate the order of the setups, and its footprint read again after the load.
 * A first start on an empty data directory is timed once per variant.
 *
 * Routes: POST /outbox (a public Note, 10 connections), GET /posts?limit=20, an uncached
 * GET /circles/:id/posts?limit=20 (the page cache off), GET /users/:id (one client each).
 * Per route: p50 and p95 of every response and the throughput, median of the rounds with their
 * spread; ratios against the first variant.
 *
 *   npm run bench -- --scale [--sizes=10000,100000] [--rounds=3] [--seconds=5]
 *     [--variants=base=/path/to/checkout,new=.] (name=dir[:VAR=value...] for extra environment)
 *     [--mongo] (also the new code on the MongoDB adapter over this run's FerretDB-PostgreSQL)
 *     [--cache=DIR] [--ownerCircles=5] [--idle=10] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_ADMIN, json, postingNotes } from './embedded';
import { median, round, type Round } from './load';
import { buildIfStale, footprintMb, startProduction, type ProductionServer } from './production';
import { seeded } from './scale-data';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sizes = arg('sizes', '10000,100000').split(',').map(Number);
const rounds = Number(arg('rounds', '3'));
const seconds = Number(arg('seconds', '5'));
const ownerCircles = Number(arg('ownerCircles', '5'));
const idleSeconds = Number(arg('idle', '10'));
const cacheDir = process.argv.some((a) => a.startsWith('--cache=')) ? resolve(arg('cache', '')) : undefined;
const KEEP = process.argv.includes('--keep');

interface Variant {
  name: string;
  root: string;
  env: (size: number) => Record<string, string>;
}

function variants(): Variant[] {
  const out: Variant[] = arg('variants', 'new=.')
    .split(',')
    .map((v) => {
      const [name, rest = '.'] = v.split(/=(.*)/s) as [string, string?];
      const [dir, ...env] = rest.split(':');
      const extra = Object.fromEntries(env.map((e) => e.split(/=(.*)/s) as [string, string]));
      return { name, root: resolve(dir!), env: () => extra };
    });
  if (process.argv.includes('--mongo')) {
    // scripts/bench.sh starts FerretDB on PostgreSQL for this run when --mongo is given.
    const url = process.env.TEST_MONGO_URL;
    if (!url) throw new Error('--mongo needs TEST_MONGO_URL (run through npm run bench)');
    out.push({
      name: 'mongo',
      root: resolve('.'),
      env: (size) => ({ MONGO_URL: `${url.replace(/\/?$/, '/')}bench_${size}_${process.pid}` }),
    });
  }
  return out;
}

interface Setup {
  size: number;
  variant: string;
  dir: string;
  server: ProductionServer;
  circleId: string;
  headers: Record<string, string>;
  userId: string;
  idleMb: ReturnType<typeof footprintMb>;
}

const routes: Record<string, (s: Setup) => Promise<Round>> = {
  'POST /outbox (10 conn)': (s) =>
    round(`${s.server.gateway}/outbox`, {
      connections: 10,
      seconds,
      headers: s.headers,
      ...postingNotes('bench'),
    }),
  'GET /posts?limit=20': (s) =>
    round(`${s.server.gateway}/posts?limit=20`, { connections: 1, seconds, headers: s.headers }),
  'GET /circles/:id/posts uncached': (s) =>
    round(`${s.server.gateway}/circles/${encodeURIComponent(s.circleId)}/posts?limit=20`, {
      connections: 1,
      seconds,
      headers: s.headers,
    }),
  'GET /users/:id': (s) =>
    round(`${s.server.gateway}/users/${encodeURIComponent(s.userId)}`, {
      connections: 1,
      seconds,
      headers: s.headers,
    }),
};

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const idle = () => new Promise((r) => setTimeout(r, idleSeconds * 1000));
const f0 = (x: number) => x.toFixed(0);
const cell = (xs: number[], digits = 1) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/** Spawn to ready and idle footprint on an empty data directory (the first start). */
async function firstStart(v: Variant): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-first-'));
  const env = v.env(0);
  if (env.MONGO_URL) env.MONGO_URL = `${env.MONGO_URL}_first`;
  const server = await startProduction(v.root, dir, env);
  await idle();
  const mb = footprintMb(server.pid);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return `| ${v.name} | ${f0(server.readyMs)} | ${f0(mb.node)} | ${f0(mb.children)} | ${f0(mb.total)} |`;
}

async function setUp(v: Variant, size: number): Promise<Setup> {
  const data = await seeded({
    variant: v.name,
    root: v.root,
    size,
    env: v.env(size),
    ownerCircles,
    cacheDir,
  });
  console.log(
    `${v.name}: ${size} posts ${data.cached ? 'from the cache (seeded in' : 'seeded in'} ${data.seedSeconds} s${data.cached ? ')' : ''}, ${data.dir}`,
  );
  const server = await startProduction(v.root, data.dir, v.env(size));
  const login = await json<{ token: string; user: { id: string } }>(`${server.gateway}/auth/login`, {
    method: 'POST',
    body: JSON.stringify(BENCH_ADMIN),
  });
  await idle();
  return {
    size,
    variant: v.name,
    dir: data.dir,
    server,
    circleId: data.circleId,
    headers: {
      authorization: `Bearer ${login.token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    userId: login.user.id,
    idleMb: footprintMb(server.pid),
  };
}

async function main(): Promise<void> {
  const vs = variants();
  console.log(`load average at start: ${load()}`);
  for (const root of new Set(vs.map((v) => v.root))) buildIfStale(root);

  const first = ['| Variant | Ready ms | Node RSS MB | Children MB | Total MB |', '|---|---|---|---|---|'];
  for (const v of vs) first.push(await firstStart(v));

  const setups: Setup[] = [];
  for (const size of sizes) for (const v of vs) setups.push(await setUp(v, size));

  const results = new Map<string, Round[]>();
  for (let r = 0; r < rounds; r++)
    for (const [name, run] of Object.entries(routes))
      for (const s of r % 2 ? [...setups].reverse() : setups) {
        const key = `${name}|${s.variant}|${s.size}`;
        const res = await run(s);
        if (res.failed) console.log(`  WARNING: ${res.failed} failed on ${key}`);
        results.set(key, [...(results.get(key) ?? []), res]);
      }
  await idle();
  const afterMb = new Map(setups.map((s) => [s, footprintMb(s.server.pid)]));

  console.log(
    `\n## Scale scenario (${rounds} alternating rounds × ${seconds} s); load average at the end: ${load()}`,
  );
  console.log(
    `\n### First start on an empty data directory (spawn to /health 200; RSS after ${idleSeconds} s idle)\n`,
  );
  console.log(first.join('\n'));
  console.log(
    `\n### Restart on the seeded data and footprint (RSS MB after ${idleSeconds} s idle, and ${idleSeconds} s after the rounds)\n`,
  );
  console.log('| Variant | Posts | Restart ms | Idle RSS (node + children) | After load (node + children) |');
  console.log('|---|---|---|---|---|');
  for (const s of setups) {
    const a = afterMb.get(s)!;
    console.log(
      `| ${s.variant} | ${s.size} | ${f0(s.server.readyMs)} | ${f0(s.idleMb.total)} (${f0(s.idleMb.node)} + ${f0(s.idleMb.children)}) | ${f0(a.total)} (${f0(a.node)} + ${f0(a.children)}) |`,
    );
  }
  const of = (name: string, v: string, n: number) => results.get(`${name}|${v}|${n}`)!;
  for (const v of vs) {
    console.log(`\n### ${v.name}: p50 ms, p95 ms, req/s (median of rounds, min–max)\n`);
    console.log(`| Route | Posts | p50 | p95 | req/s |`);
    console.log('|---|---|---|---|---|');
    for (const name of Object.keys(routes))
      for (const n of sizes) {
        const rs = of(name, v.name, n);
        console.log(
          `| ${name} | ${n} | ${cell(rs.map((x) => x.p50))} | ${cell(rs.map((x) => x.p95))} | ${cell(
            rs.map((x) => x.rps),
            0,
          )} |`,
        );
      }
    if (sizes.length > 1) {
      console.log(`\n${v.name}, flatness (p50 at ${sizes.at(-1)} / p50 at ${sizes[0]}):`);
      for (const name of Object.keys(routes))
        console.log(
          `  ${name}: ${(median(of(name, v.name, sizes.at(-1)!).map((x) => x.p50)) / median(of(name, v.name, sizes[0]!).map((x) => x.p50))).toFixed(2)}`,
        );
    }
  }
  const base = vs[0]!;
  for (const v of vs.slice(1)) {
    console.log(`\n### ${v.name} / ${base.name} (ratio of medians; p50 < 1 is faster, req/s > 1 is more)\n`);
    console.log('| Route | Posts | p50 ratio | p95 ratio | req/s ratio |');
    console.log('|---|---|---|---|---|');
    for (const name of Object.keys(routes))
      for (const n of sizes) {
        const a = of(name, base.name, n);
        const b = of(name, v.name, n);
        const ratio = (k: keyof Round) =>
          (median(b.map((x) => x[k])) / median(a.map((x) => x[k]))).toFixed(2);
        console.log(`| ${name} | ${n} | ${ratio('p50')} | ${ratio('p95')} | ${ratio('rps')} |`);
      }
  }
  for (const s of setups) {
    await s.server.stop();
    if (KEEP) console.log(`kept ${s.variant} ${s.size}: ${s.dir}`);
    else rmSync(s.dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
