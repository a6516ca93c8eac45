/**
 * Where a POST /outbox and an uncached GET /circles/:id/posts spend their time, counted at the
 * engine port (ADR 0013), so it reads the same on both engines: every port call one request
 * makes, by collection and operation, with how many of them were writes (on SQLite each one a
 * transaction of its own), the time spent inside the port and the request's wall-clock time.
 * In-process standalone wiring on SQLite in a temporary directory (or, with `--mongo=URL`, the
 * MongoDB adapter on that database), seeded small. Prints tables; docs/performance.md quotes them.
 *
 *   node --import tsx bench/outbox-profile.ts [--posts=2000] [--requests=20] [--ownerCircles=5]
 *     [--warmup=10] [--mongo=mongodb://…/db] [--trace]
 *
 * Requests run one at a time; the event consumers' work lands in the request in flight, so the
 * mean is the steadier figure for it. Posts are a public Note and a post to a circle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@agora/common/config';
import { MongoCollection, SqliteCollection } from '@agora/common/db/engine';
import { sqlitePathOf } from '@agora/common/runtime';
import { startStandalone } from '@agora/standalone';
import { BENCH_ADMIN, BENCH_DOMAIN, benchSettings } from './embedded';
import { median } from './load';
import { seed } from './seed';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    requests: { type: 'string', default: '20' },
    ownerCircles: { type: 'string', default: '5' },
    /** Posts made first and not counted (the seed's membership backfills settle meanwhile). */
    warmup: { type: 'string', default: '10' },
    mongo: { type: 'string' },
    trace: { type: 'boolean', default: false },
  },
});

const WRITES = new Set([
  'insertOne',
  'insertMany',
  'insertEach',
  'updateEach',
  'updateOne',
  'findOneAndUpdate',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'findOneAndDelete',
]);
const OPS = [...WRITES, 'findOne', 'find', 'count'];

interface Call {
  op: string;
  coll: string;
  ms: number;
  at: number;
}

/** Every port call of both adapters, recorded while `current` is set. */
let current: Call[] | null = null;
for (const proto of [SqliteCollection.prototype, MongoCollection.prototype] as unknown as Array<
  Record<string, (...args: unknown[]) => Promise<unknown>>
>) {
  for (const op of OPS) {
    const orig = proto[op]!;
    proto[op] = function (this: { spec: { name: string } }, ...args: unknown[]) {
      const calls = current;
      if (!calls) return orig.apply(this, args);
      const t0 = performance.now();
      const done = () => calls.push({ op, coll: this.spec.name, ms: performance.now() - t0, at: t0 });
      const out = orig.apply(this, args);
      void out.then(done, done);
      return out;
    };
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-profile-'));
  const config = loadConfig(
    { ...benchSettings(dir), ...(values.mongo ? { MONGO_URL: values.mongo } : {}) },
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' },
  );
  const app = await startStandalone(config);
  const base = app.url;
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const login = (await post('/auth/login', BENCH_ADMIN)) as {
    token: string;
    user: { id: string };
  };
  const { circleId } = await seed(values.mongo ?? sqlitePathOf(config), BENCH_DOMAIN, {
    posts: Number(values.posts),
    members: 50,
    circles: 100,
    ownerId: login.user.id,
    ownerCircles: Number(values.ownerCircles),
  });

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const profile = async (label: string, run: () => Promise<unknown>) => {
    const counts = new Map<string, number[]>();
    const totals: number[] = [];
    const writes: number[] = [];
    const walls: number[] = [];
    const portTimes: number[] = [];
    for (let i = 0; i < Number(values.requests); i++) {
      current = [];
      const t0 = performance.now();
      await run();
      walls.push(performance.now() - t0);
      const calls = current;
      current = null;
      const per = new Map<string, number>();
      for (const c of calls) per.set(`${c.op} ${c.coll}`, (per.get(`${c.op} ${c.coll}`) ?? 0) + 1);
      // A call absent from this request counts 0 here (not left out of its median).
      for (const k of new Set([...counts.keys(), ...per.keys()]))
        counts.set(k, [...(counts.get(k) ?? Array<number>(i).fill(0)), per.get(k) ?? 0]);
      totals.push(calls.length);
      writes.push(calls.filter((c) => WRITES.has(c.op)).length);
      portTimes.push(calls.reduce((a, c) => a + c.ms, 0));
      if (values.trace && i === Number(values.requests) - 1)
        for (const c of calls)
          console.log(
            `  +${(c.at - t0).toFixed(1).padStart(6)} ms ${c.ms.toFixed(2).padStart(6)} ms ${c.op} ${c.coll}`,
          );
    }
    console.log(`\n### ${label} (${values.requests} requests one at a time)`);
    console.log(
      `port calls ${median(totals)} (mean ${mean(totals).toFixed(1)}), writes ${median(writes)} (mean ${mean(writes).toFixed(1)}), ` +
        `wall ${median(walls).toFixed(1)} ms, inside the port ${median(portTimes).toFixed(1)} ms (medians)`,
    );
    console.log('| Operation | Collection | per request (median) | mean |\n|---|---|---|---|');
    for (const [k, ns] of [...counts].sort((a, b) => mean(b[1]) - mean(a[1]))) {
      const [op, coll] = k.split(' ');
      console.log(`| ${op} | ${coll} | ${median(ns)} | ${mean(ns).toFixed(1)} |`);
    }
  };

  let n = 0;
  for (let i = 0; i < Number(values.warmup); i++)
    await post(
      '/outbox',
      { type: 'Create', objectType: 'Post', to: '@public', object: { content: `warm-up ${n++}` } },
      login.token,
    );
  await profile('POST /outbox (public Note)', () =>
    post(
      '/outbox',
      { type: 'Create', objectType: 'Post', to: '@public', object: { content: `profile ${n++}` } },
      login.token,
    ),
  );
  await profile('POST /outbox (circle post)', () =>
    post(
      '/outbox',
      { type: 'Create', objectType: 'Post', to: circleId, object: { content: `circle ${n++}` } },
      login.token,
    ),
  );
  await profile('GET /circles/:id/posts?limit=20 (caches off)', async () => {
    const res = await fetch(`${base}/circles/${encodeURIComponent(circleId)}/posts?limit=20`, {
      headers: { authorization: `Bearer ${login.token}` },
    });
    if (res.status !== 200) throw new Error(`timeline: ${res.status}`);
    await res.json();
  });
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
