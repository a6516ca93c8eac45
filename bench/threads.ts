/**
 * npm run bench -- --threads: a thread page and a new reply on the embedded default, with a
 * replies collection of 10,000 and 100,000 replies (50 of them in the measured thread), side by
 * side for each checkout given (`--variants=base=/path/to/checkout,new=.`). Replies are seeded
 * straight into the database, then the server restarts (its start-up builds the thread lists of
 * replies stored before them, where the checkout has them).
 *
 * Routes: GET /posts/:id/replies?limit=20 and POST /outbox (a Reply to that post), one client.
 *
 *   node --import tsx bench/threads.ts [--sizes=10000,100000] [--rounds=3] [--seconds=5] [--variants=...]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_ADMIN, BENCH_DOMAIN, json, posting, startBenchServer, type BenchServer } from './embedded';
import { median, spread } from './load';
import { seedReplies } from './seed';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sizes = arg('sizes', '10000,100000').split(',').map(Number);
const rounds = Number(arg('rounds', '3'));
const seconds = Number(arg('seconds', '5'));
const variants = arg('variants', 'new=.')
  .split(',')
  .map((v) => v.split('=') as [string, string]);

interface Setup {
  key: string;
  server: BenchServer;
  dir: string;
  rootId: string;
  headers: Record<string, string>;
}

async function setUp(name: string, root: string, size: number): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-threads-'));
  let server = await startBenchServer(root, dir);
  const login = await json<{ token: string; user: { id: string } }>(`${server.gateway}/auth/login`, {
    method: 'POST',
    body: JSON.stringify(BENCH_ADMIN),
  });
  const headers = { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' };
  const created = await json<{ createdId: string }>(`${server.gateway}/outbox`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'Create', objectType: 'Post', to: '@public', object: { content: 'root' } }),
  });
  const t0 = Date.now();
  await seedReplies(server.database, BENCH_DOMAIN, created.createdId, login.user.id, size);
  await server.stop();
  server = await startBenchServer(root, dir);
  console.log(`${name}: ${size} replies seeded and restarted in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { key: `${name}|${size}`, server, dir, rootId: created.createdId, headers };
}

async function p50(s: Setup, post: boolean): Promise<number> {
  const url = post
    ? `${s.server.gateway}/outbox`
    : `${s.server.gateway}/posts/${encodeURIComponent(s.rootId)}/replies?limit=20`;
  const r = await autocannon({
    url,
    connections: 1,
    duration: seconds,
    headers: s.headers,
    timeout: 60,
    ...(post
      ? posting((n) => ({ type: 'Reply', to: s.rootId, object: { content: `bench reply ${n}` } }))
      : {}),
  });
  if (r.errors || r.non2xx) console.log(`  WARNING: ${r.errors} errors, ${r.non2xx} non-2xx on ${url}`);
  return r.latency.p50 ?? r.latency.median;
}

async function main(): Promise<void> {
  const setups: Setup[] = [];
  for (const size of sizes)
    for (const [name, root] of variants) setups.push(await setUp(name, resolve(root), size));
  const routes = { 'GET /posts/:id/replies': false, 'POST /outbox (Reply)': true };
  const results = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++)
    for (const [route, post] of Object.entries(routes))
      for (const s of r % 2 ? [...setups].reverse() : setups) {
        const key = `${route}|${s.key}`;
        results.set(key, [...(results.get(key) ?? []), await p50(s, post)]);
      }
  console.log(`\n## Threads, embedded default, p50 ms (median of ${rounds} alternating rounds, spread)\n`);
  console.log(`| Route | ${setups.map((s) => s.key.replace('|', ', ')).join(' | ')} |`);
  console.log(`|---|${setups.map(() => '---|').join('')}`);
  for (const route of Object.keys(routes))
    console.log(
      `| ${route} | ${setups
        .map((s) => {
          const xs = results.get(`${route}|${s.key}`)!;
          return `${median(xs).toFixed(0)} (${spread(xs)})`;
        })
        .join(' | ')} |`,
    );
  for (const s of setups) {
    await s.server.stop();
    rmSync(s.dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
