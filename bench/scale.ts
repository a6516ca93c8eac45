/**
 * npm run bench -- --scale: the hot routes of issue 9 on the embedded default (FerretDB with its
 * SQLite handler, spawned by the standalone process), at two database sizes side by side. Each
 * size gets its own server and data directory; rounds alternate between them and the report
 * gives medians with their spread. What "flat" means: the larger database's figure over the
 * smaller one's (a ratio near 1).
 *
 * Routes: POST /outbox (public Note, 10 connections), GET /posts?limit=20, an uncached
 * GET /circles/:id/posts?limit=20 (the page cache off), GET /users/:id (single client each).
 *
 * `--variants=base=/path/to/checkout,new=.` (optionally `name=dir:VAR=value`) runs each size once per checkout (a baseline built
 * from another commit with its own node_modules), so a change is measured against the code
 * before it in the same run. `--ownerCircles=N`: the posting user is a member of N circles, so
 * each of its posts fans out to N timelines (default 5). `--keep` leaves the data directories
 * (for bench/startup.ts's idle memory after seeding).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  BENCH_ADMIN,
  BENCH_DOMAIN,
  json,
  postingNotes,
  startBenchServer,
  type BenchServer,
} from './embedded';
import { median, spread } from './load';

const DOMAIN = BENCH_DOMAIN;

interface Server extends Omit<BenchServer, 'stop'> {
  dir: string;
  stop(): void;
}

const KEEP = process.argv.includes('--keep');

async function startEmbedded(root: string, extraEnv: Record<string, string>): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-scale-'));
  const server = await startBenchServer(root, dir, extraEnv);
  return {
    ...server,
    dir,
    stop: () => {
      void server.stop();
      if (!KEEP) setTimeout(() => rmSync(dir, { recursive: true, force: true }), 3000).unref();
    },
  };
}

async function p50(
  url: string,
  opts: { connections: number; seconds: number; headers: Record<string, string>; post?: boolean },
) {
  const r = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
    timeout: 60,
    ...(opts.post ? postingNotes('bench') : {}),
  });
  if (r.errors || r.non2xx) console.log(`  WARNING: ${r.errors} errors, ${r.non2xx} non-2xx on ${url}`);
  return r.latency.p50 ?? r.latency.median;
}

interface Setup {
  size: number;
  variant: string;
  server: Server;
  circleId: string;
  headers: Record<string, string>;
  userId: string;
}

async function main(): Promise<void> {
  const sizes = (process.argv.find((a) => a.startsWith('--sizes='))?.slice(8) ?? '10000,100000')
    .split(',')
    .map(Number);
  const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 3);
  const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 5);
  const ownerCircles = Number(process.argv.find((a) => a.startsWith('--ownerCircles='))?.slice(15) ?? 5);
  const variants = (process.argv.find((a) => a.startsWith('--variants='))?.slice(11) ?? 'new=.')
    .split(',')
    .map((v) => {
      // name=dir[:VAR=value...]: extra environment for that variant's server.
      const [name, rest = '.'] = v.split(/=(.*)/s) as [string, string?];
      const [dir, ...env] = rest.split(':');
      return [name, dir!, Object.fromEntries(env.map((e) => e.split('=') as [string, string]))] as const;
    });
  const setups: Setup[] = [];
  console.log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const size of sizes)
    for (const [variant, root, extraEnv] of variants) {
      const server = await startEmbedded(resolve(root), extraEnv);
      const login = await json<{ token: string; user: { id: string } }>(`${server.gateway}/auth/login`, {
        method: 'POST',
        body: JSON.stringify(BENCH_ADMIN),
      });
      const t0 = Date.now();
      // Each variant seeds with its own code: the stored shapes (list entries) may differ.
      const { seed } = (await import(join(resolve(root), 'bench', 'seed.ts'))) as typeof import('./seed');
      const { circleId } = await seed(server.database, DOMAIN, {
        posts: size,
        members: 200,
        circles: 1000,
        ownerId: login.user.id,
        ownerCircles,
      });
      console.log(
        `${variant}: ${size} posts seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s (embedded SQLite, ${server.dir})`,
      );
      setups.push({
        size,
        variant,
        server,
        circleId,
        headers: {
          authorization: `Bearer ${login.token}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        userId: login.user.id,
      });
    }
  const routes = {
    'POST /outbox (10 conn)': (s: Setup) =>
      p50(`${s.server.gateway}/outbox`, { connections: 10, seconds, headers: s.headers, post: true }),
    'GET /posts?limit=20': (s: Setup) =>
      p50(`${s.server.gateway}/posts?limit=20`, { connections: 1, seconds, headers: s.headers }),
    'GET /circles/:id/posts uncached': (s: Setup) =>
      p50(`${s.server.gateway}/circles/${encodeURIComponent(s.circleId)}/posts?limit=20`, {
        connections: 1,
        seconds,
        headers: s.headers,
      }),
    'GET /users/:id': (s: Setup) =>
      p50(`${s.server.gateway}/users/${encodeURIComponent(s.userId)}`, {
        connections: 1,
        seconds,
        headers: s.headers,
      }),
  };
  const results = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++)
    for (const [name, run] of Object.entries(routes))
      for (const s of r % 2 ? [...setups].reverse() : setups) {
        const key = `${name}|${s.variant}|${s.size}`;
        results.set(key, [...(results.get(key) ?? []), (await run(s)) ?? 0]);
      }
  console.log(
    `\n## Scale scenario, embedded default, p50 ms (median of ${rounds} alternating rounds, spread); ` +
      `load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  for (const [variant] of variants) {
    console.log(`\n### ${variant}`);
    console.log(`| Route | ${sizes.map((n) => `${n} posts`).join(' | ')} | ${sizes.at(-1)} / ${sizes[0]} |`);
    console.log(`|---|${sizes.map(() => '---|').join('')}---|`);
    for (const name of Object.keys(routes)) {
      const cells = sizes.map((n) => results.get(`${name}|${variant}|${n}`)!);
      const meds = cells.map(median);
      console.log(
        `| ${name} | ${cells.map((c, i) => `${meds[i]!.toFixed(1)} (${spread(c)})`).join(' | ')} | ${(meds.at(-1)! / meds[0]!).toFixed(2)} |`,
      );
    }
  }
  if (variants.length > 1) {
    const [first] = variants[0]!;
    for (const [variant] of variants.slice(1)) {
      console.log(`\n### ${variant} / ${first} (ratio of medians; < 1 is faster)`);
      console.log(`| Route | ${sizes.map((n) => `${n} posts`).join(' | ')} |`);
      console.log(`|---|${sizes.map(() => '---|').join('')}`);
      for (const name of Object.keys(routes))
        console.log(
          `| ${name} | ${sizes
            .map((n) =>
              (
                median(results.get(`${name}|${variant}|${n}`)!) /
                median(results.get(`${name}|${first}|${n}`)!)
              ).toFixed(2),
            )
            .join(' | ')} |`,
        );
    }
  }
  for (const s of setups) {
    if (KEEP) console.log(`kept ${s.variant} ${s.size}: ${s.server.dir}`);
    s.server.stop();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
