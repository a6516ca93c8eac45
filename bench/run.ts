/**
 * npm run bench: the gateway against the services side by side (throughput ratio and added
 * median latency, trivial and DB-backed endpoints, edge checks on), and the circle timeline at
 * 50 concurrent clients over a seeded database, with its query plan. Ratios and medians of
 * several alternating rounds, never absolute timing asserts.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeRedis, connectRedis, redisStampStore, STAMPS } from '@agora/common/cache';
import { createLogger } from '@agora/common/logger';
import { measure, median, spread, type Sample } from './load';
import { seed } from './seed';
import { PEER, benchInbox, startBenchPeer } from './inbox';
import { benchBackup } from './backup';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connectDatabase, createStores } from '@agora/common/db';
import { benchUpload, UPLOAD_SIZES, type UploadSample } from './upload';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    posts: { type: 'string', default: '100000' },
    skipTimeline: { type: 'boolean', default: false },
    skipGateway: { type: 'boolean', default: false },
    skipInbox: { type: 'boolean', default: false },
    skipBackup: { type: 'boolean', default: false },
    onlyBackup: { type: 'boolean', default: false },
    backupMb: { type: 'string', default: '1024' },
    skipUpload: { type: 'boolean', default: false },
    skipFederation: { type: 'boolean', default: false },
    connections: { type: 'string', default: '20' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const DOMAIN = 'bench.test';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVER_PREFIX = `bench${Date.now()}:`;

/** What a write to the circle does to its cached pages: its stamp moves (as the posts store does when it appends a post). */
async function bumpCircle(circleId: string): Promise<void> {
  const logger = createLogger({ level: 'silent', service: 'bench' });
  const redis = await connectRedis(REDIS_URL, logger, 'bench');
  await redisStampStore(redis, SERVER_PREFIX, logger).bump([STAMPS.circle(circleId)]);
  await closeRedis(redis);
}

async function startServer(mongoUrl: string, extraEnv: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'server.ts')], {
    env: {
      ...process.env,
      MONGO_URL: mongoUrl,
      DOMAIN,
      PUBLIC_URL: 'http://bench.test',
      REDIS_URL,
      REDIS_PREFIX: SERVER_PREFIX,
      ADMIN_USERNAME: 'bench_admin',
      ADMIN_PASSWORD: 'bench-password',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`bench server exited ${c}`)));
  });
  return {
    urls: JSON.parse(line) as { gateway: string; services: Record<string, string> },
    pid: child.pid!,
    stop: () => child.kill('SIGTERM'),
  };
}

/** The gateway in its own process, as in the cluster (in standalone it shares the services' event loop). */
async function startGatewayProcess(services: Record<string, string>) {
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', 'services', 'gateway', 'src', 'main.ts')],
    {
      env: {
        ...process.env,
        DOMAIN,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_PREFIX: `benchgw${Date.now()}:`,
        SERVICE_URLS: Object.entries(services)
          .filter(([n]) => n !== 'backup')
          .map(([n, u]) => `${n}=${u}`)
          .join(','),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

async function compare(name: string, direct: string, viaGateway: string, headers: Record<string, string>) {
  const d: Sample[] = [];
  const g: Sample[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    d.push(await measure(direct, { connections: CONNECTIONS, seconds: SECONDS, headers }));
    g.push(await measure(viaGateway, { connections: CONNECTIONS, seconds: SECONDS, headers }));
  }
  const ratios = d.map((x, i) => g[i]!.rps / x.rps);
  const added = d.map((x, i) => g[i]!.p50 - x.p50);
  const bad = [...d, ...g].reduce((n, s) => n + s.errors + s.non2xx, 0);
  console.log(`\n## ${name}`);
  console.log(
    `direct   req/s median ${median(d.map((s) => s.rps)).toFixed(0)}  p50 ${median(d.map((s) => s.p50))} ms`,
  );
  console.log(
    `gateway  req/s median ${median(g.map((s) => s.rps)).toFixed(0)}  p50 ${median(g.map((s) => s.p50))} ms`,
  );
  console.log(
    `throughput ratio gateway/direct: median ${median(ratios).toFixed(2)} (spread ${spread(ratios)})`,
  );
  console.log(`added median latency: ${median(added).toFixed(2)} ms (spread ${spread(added)})`);
  if (bad) console.log(`WARNING: ${bad} errors or non-2xx responses`);
}

async function main(): Promise<void> {
  if (values.onlyBackup) return benchBackup({ largeMb: Number(values.backupMb), smallMb: 128, docs: 50_000 });
  const base = (process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27117/').replace(/\/?$/, '/');
  const mongoUrl = `${base}bench_${Date.now().toString(36)}`;
  const peer = await startBenchPeer();
  const server = await startServer(mongoUrl, {
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: `${PEER}=${peer.address}`,
  });
  const stops: Array<() => void> = [peer.close];
  try {
    const { services } = server.urls;
    const gw = await startGatewayProcess(services);
    stops.push(gw.stop);
    const gateway = gw.url;
    const reg = await fetch(`${gateway}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench_admin', password: 'bench-password' }),
    });
    const { token, user } = (await reg.json()) as { token: string; user: { id: string } };
    // A token on every request, so the gateway verifies it (edge checks on).
    const headers = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      origin: `https://${DOMAIN}`,
    };
    for (let i = 0; i < 40; i++) {
      await fetch(`${gateway}/outbox`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'Create',
          objectType: 'Post',
          to: '@public',
          object: { content: `seed ${i}` },
        }),
      });
    }
    console.log(
      `# Benchmarks (${new Date().toISOString()}, ${ROUNDS} rounds × ${SECONDS}s, ${CONNECTIONS} connections, Node ${process.version})`,
    );
    if (!values.skipGateway) {
      await compare(
        'Trivial endpoint: GET /.well-known/nodeinfo',
        `${services.federation}/.well-known/nodeinfo`,
        `${gateway}/.well-known/nodeinfo`,
        headers,
      );
      await compare(
        'DB-backed list: GET /posts?limit=20',
        `${services.social}/posts?limit=20`,
        `${gateway}/posts?limit=20`,
        headers,
      );
    }

    if (!values.skipInbox) {
      // Straight to the federation service: the gateway's inbox limit is 100 requests per 15 min per IP.
      const rounds = [];
      for (let i = 0; i < ROUNDS; i++)
        rounds.push(await benchInbox(services.federation!, SECONDS, CONNECTIONS));
      console.log(
        `\n## POST /inbox (signed, distinct activities, ${CONNECTIONS} connections, federation service)`,
      );
      console.log(
        `req/s median ${median(rounds.map((r) => r.rps)).toFixed(0)}, p50 median ${median(rounds.map((r) => r.p50))} ms, p97.5 median ${median(rounds.map((r) => r.p97))} ms (spread ${spread(rounds.map((r) => r.p97))})`,
      );
      const bad = rounds.reduce((n, r) => n + r.bad, 0);
      if (bad) console.log(`WARNING: ${bad} errors or non-2xx responses`);
    }

    if (!values.skipTimeline) {
      const posts = Number(values.posts);
      console.log(`\n## Circle timeline: 200 members, ${posts} posts, 1000 circles (seeding...)`);
      const t0 = Date.now();
      const { circleId } = await seed(mongoUrl, DOMAIN, {
        posts,
        members: 200,
        circles: 1000,
        ownerId: user.id,
      });
      console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      const url = `${gateway}/circles/${encodeURIComponent(circleId)}/posts?limit=50`;
      const read = async () => {
        const t = performance.now();
        const res = await fetch(url, { headers });
        const body = (await res.json()) as { orderedItems?: unknown[] };
        if (res.status !== 200 || body.orderedItems?.length !== 50)
          console.log(`WARNING: read answered ${res.status} with ${body.orderedItems?.length} items`);
        return performance.now() - t;
      };
      console.log(`timeline, first read (nothing cached): ${(await read()).toFixed(0)} ms`);
      // Cold: the first read after a write to the circle (its stamp moved) computes the page.
      const cold: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await bumpCircle(circleId);
        cold.push(await read());
      }
      console.log(
        `timeline, first read after a write to the circle (page recomputed, posts cached): median ${median(cold).toFixed(0)} ms (spread ${spread(cold)})`,
      );
      const single = await measure(url, { connections: 1, seconds: SECONDS, headers });
      console.log(
        `timeline, one client: req/s ${single.rps.toFixed(1)}, p50 ${single.p50} ms, p97.5 ${single.p95} ms`,
      );
      const samples: Sample[] = [];
      for (let i = 0; i < ROUNDS; i++)
        samples.push(await measure(url, { connections: 50, seconds: SECONDS, headers }));
      console.log(
        `timeline at 50 concurrent clients: req/s median ${median(samples.map((s) => s.rps)).toFixed(0)}, p50 median ${median(samples.map((s) => s.p50))} ms, p97.5 median ${median(samples.map((s) => s.p95))} ms (spread ${spread(samples.map((s) => s.p95))})`,
      );
      const bad = samples.reduce((n, s) => n + s.errors + s.non2xx, 0);
      if (bad) console.log(`WARNING: ${bad} errors or non-2xx responses`);
    }
  } finally {
    for (const stop of stops) stop();
    server.stop();
  }
  // Its own worker processes and databases: after the server benches, not beside them.
  if (!values.skipBackup) await benchBackup({ largeMb: Number(values.backupMb), smallMb: 128, docs: 50_000 });
  if (!values.skipUpload) await uploadSection(mongoUrl);
  if (!values.skipFederation) await federationSection();
}

/** bench/federation.ts (fan-out to 1,000 inboxes, inbox accepted/s) on its own SQLite standalone. */
async function federationSection(): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(__dirname, 'federation.ts'),
      '--rounds',
      String(ROUNDS),
      '--seconds',
      String(SECONDS),
    ],
    { stdio: 'inherit' },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) console.log(`WARNING: the federation benchmarks exited ${code}`);
}

/**
 * Each upload in a fresh server process (a used heap hides growth), after a 1 MB warm-up
 * upload; the size limit and quota are raised in the database before the server starts.
 */
async function uploadSection(mongoUrl: string): Promise<void> {
  const db = await connectDatabase({
    url: mongoUrl,
    logger: createLogger({ level: 'silent', service: 'bench' }),
  });
  const { settings } = createStores(db, DOMAIN);
  await settings.set('maxUploadSize', 400);
  await settings.set('userStorageQuota', 0);
  await db.close();
  const results: Record<string, UploadSample[]> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [label, size] of Object.entries(UPLOAD_SIZES)) {
      const dataDir = mkdtempSync(join(tmpdir(), 'agora-bench-'));
      const server = await startServer(mongoUrl, { DATA_DIR: dataDir });
      try {
        const login = await fetch(`${server.urls.gateway}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'bench_admin', password: 'bench-password' }),
        });
        const { token } = (await login.json()) as { token: string };
        await benchUpload(server.urls.gateway, token, server.pid, 1_000_000);
        (results[label] ??= []).push(await benchUpload(server.urls.gateway, token, server.pid, size));
      } finally {
        server.stop();
        await new Promise((r) => setTimeout(r, 1000));
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  console.log(
    '\n## POST /files: peak RSS growth of the server process during one streamed upload (disk store)',
  );
  for (const [label, samples] of Object.entries(results)) {
    const growth = samples.map((s) => s.peakGrowthMb);
    console.log(
      `${label} (${samples[0]!.sizeMb} MB): growth median ${median(growth).toFixed(1)} MB (spread ${spread(growth)}), RSS before ${median(samples.map((s) => s.rssBeforeMb)).toFixed(0)} MB, ${median(samples.map((s) => s.seconds)).toFixed(1)} s`,
    );
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
