/**
 * Where a POST /outbox (public Note) and an uncached GET /circles/:id/posts spend their time on
 * the embedded engine: every database command one request sends (the driver's command
 * monitoring), by collection and command, with the critical path (how many commands ran one
 * after another) and the request's wall-clock time. In-process standalone wiring over a
 * FerretDB/SQLite it spawns, seeded small. Prints a table; docs/performance.md quotes it.
 *
 *   node --import tsx bench/outbox-profile.ts [--posts=2000] [--requests=20] [--ownerCircles=5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@agora/common/config';
import { spawnFerretDB } from '@agora/common/db';
import { startStandalone } from '@agora/standalone';
import mongoose from 'mongoose';
import { BENCH_ADMIN, BENCH_DOMAIN, benchSettings } from './embedded';
import { median } from './load';
import { seed } from './seed';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    requests: { type: 'string', default: '20' },
    ownerCircles: { type: 'string', default: '5' },
    trace: { type: 'boolean', default: false },
    /** SQLite's synchronous setting for the spawned FerretDB (EMBEDDED_DB_SYNC). */
    sync: { type: 'string', default: 'normal' },
    /** Print where the commands on this collection come from (the first request's stacks). */
    stacks: { type: 'string' },
  },
});
const DOMAIN = BENCH_DOMAIN;

interface Cmd {
  name: string;
  coll: string;
  start: number;
  end?: number;
  id: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-profile-'));
  const ferret = await spawnFerretDB({
    bin: resolve('.tools/bin/ferretdb'),
    dataDir: join(dir, 'ferretdb'),
    sqliteSync: values.sync === 'full' ? 'full' : 'normal',
  });
  const config = loadConfig(
    { ...benchSettings(dir), MONGO_URL: `${ferret.url}agora?monitorCommands=true` },
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
  const { circleId } = await seed(`${ferret.url}agora`, DOMAIN, {
    posts: Number(values.posts),
    members: 50,
    circles: 100,
    ownerId: login.user.id,
    ownerCircles: Number(values.ownerCircles),
  });

  // Every command the services send, tagged with the request in flight (requests run one at a time).
  const client = app.services[0]!.runtime!.db.conn!.getClient();
  let current: Cmd[] | null = null;
  const open = new Map<number, Cmd>();
  client.on('commandStarted', (e) => {
    if (!current || ['hello', 'isMaster', 'ping', 'endSessions'].includes(e.commandName)) return;
    const c: Cmd = {
      name: e.commandName,
      coll: String((e.command as Record<string, unknown>)[e.commandName]),
      start: performance.now(),
      id: e.requestId,
    };
    current.push(c);
    open.set(e.requestId, c);
  });
  const done = (e: { requestId: number }) => {
    const c = open.get(e.requestId);
    if (c) c.end = performance.now();
    open.delete(e.requestId);
  };
  if (values.stacks) {
    let shown = 0;
    mongoose.set('debug', (coll: string, method: string) => {
      if (!current || coll !== values.stacks || shown++ > 12) return;
      const frames = (new Error().stack ?? '')
        .split('\n')
        .filter((l) => /services|libs/.test(l) && !/node_modules/.test(l));
      console.log(`${coll}.${method}\n${frames.slice(0, 6).join('\n')}`);
    });
  }
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);

  const profile = async (label: string, run: () => Promise<unknown>) => {
    const counts = new Map<string, number[]>();
    const totals: number[] = [];
    const depths: number[] = [];
    const walls: number[] = [];
    const dbTimes: number[] = [];
    for (let i = 0; i < Number(values.requests); i++) {
      current = [];
      const t0 = performance.now();
      await run();
      walls.push(performance.now() - t0);
      const cmds = current;
      current = null;
      const per = new Map<string, number>();
      for (const c of cmds) per.set(`${c.name} ${c.coll}`, (per.get(`${c.name} ${c.coll}`) ?? 0) + 1);
      // A command absent from this request counts 0 here (not left out of its median).
      for (const k of new Set([...counts.keys(), ...per.keys()]))
        counts.set(k, [...(counts.get(k) ?? Array<number>(i).fill(0)), per.get(k) ?? 0]);
      totals.push(cmds.length);
      // Critical path: commands that started after every earlier one had finished begin a new level.
      let depth = 0;
      let levelEnd = -Infinity;
      for (const c of [...cmds].sort((a, b) => a.start - b.start)) {
        if (c.start >= levelEnd) depth++;
        levelEnd = Math.max(levelEnd === -Infinity ? 0 : levelEnd, c.end ?? c.start);
      }
      depths.push(depth);
      // Time with at least one command in flight.
      let busy = 0;
      let until = -Infinity;
      for (const c of [...cmds].sort((a, b) => a.start - b.start)) {
        const end = c.end ?? c.start;
        if (c.start > until) busy += end - c.start;
        else if (end > until) busy += end - until;
        until = Math.max(until, end);
      }
      dbTimes.push(busy);
      if (values.trace && i === Number(values.requests) - 1)
        for (const c of cmds)
          console.log(
            `  +${(c.start - t0).toFixed(1).padStart(6)} ms ${((c.end ?? c.start) - c.start).toFixed(1).padStart(5)} ms ${c.name} ${c.coll}`,
          );
    }
    console.log(`\n### ${label} (${values.requests} requests one at a time, medians)`);
    console.log(
      `commands ${median(totals)} (mean ${(totals.reduce((a, b) => a + b, 0) / totals.length).toFixed(1)}), sequential levels ${median(depths)}, wall ${median(walls).toFixed(1)} ms, ` +
        `database busy ${median(dbTimes).toFixed(1)} ms`,
    );
    // Consumers run after the response: their commands land in this request or the next, so the
    // mean is the steadier figure for them.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log('| Command | Collection | per request (median) | mean |\n|---|---|---|---|');
    for (const [k, ns] of [...counts].sort((a, b) => mean(b[1]) - mean(a[1]))) {
      const [name, coll] = k.split(' ');
      console.log(`| ${name} | ${coll} | ${median(ns)} | ${mean(ns).toFixed(1)} |`);
    }
  };

  let n = 0;
  await profile('POST /outbox (public Note)', () =>
    post(
      '/outbox',
      { type: 'Create', objectType: 'Post', to: '@public', object: { content: `profile ${n++}` } },
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
  await ferret.stop();
  rmSync(dir, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
