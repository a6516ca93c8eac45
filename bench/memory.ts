/**
 * Memory of the production entry after posting N, then more posts (issue 22's "RSS after the
 * load"), smaller and quicker than `--scale`: `node dist/standalone.js` of a checkout with its
 * `npm start` flags and environment (bench/production.ts `startFlags`), plus `--expose-gc` and
 * the probe below, on a fresh data directory seeded with `--seed` posts (the posting
 * user in 5 circles, as bench/outbox-cpu.ts). Each step posts its count at 10 connections,
 * waits `--wait` seconds and prints: the RSS as the scale run reads it (no collection forced),
 * then what two full collections leave (heap used and committed, V8's new and old space, the
 * anonymous and file-backed resident memory), and the server's CPU per post (the process, and
 * its main thread: the event loop every request waits on).
 *
 *   node --import tsx bench/memory.ts [--root=.] [--steps=1000,2000] [--wait=10] [--seed=2000]
 *     [--flags="--v8-flag ..."] [--env=NAME=value,...] [--snapshot] [--trace=FILE]
 *
 * `--flags` and `--env` come after the checkout's own (a later V8 flag wins); `--snapshot` writes
 * a heap snapshot per step (compare two in Chrome's DevTools to see what a step kept);
 * `--trace=FILE` runs the server with `--trace-gc-verbose` into FILE.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '@agora/common/db';
import { BENCH_ADMIN, BENCH_DOMAIN, benchServerEnv, json, postingNotes } from './embedded';
import { startFlags } from './production';
import { seed } from './seed';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const root = resolve(arg('root', '.'));
const steps = arg('steps', '1000,2000').split(',').map(Number);
const waitSeconds = Number(arg('wait', '10'));
const seedPosts = Number(arg('seed', '2000'));
const extraFlags = arg('flags', '').split(' ').filter(Boolean);
const extraEnv = Object.fromEntries(
  arg('env', '')
    .split(',')
    .filter(Boolean)
    .map((e) => e.split(/=(.*)/s) as [string, string]),
);
const trace = arg('trace', '');
/**
 * Loaded into the server (`--import data:…`, plain JavaScript: a TypeScript file would have Node
 * load its type stripper into the process measured): on SIGUSR2 it writes the memory as it is,
 * then after two full collections, to `$MEMORY_PROBE_DIR/<n>.json`, and a heap snapshot beside it
 * when MEMORY_PROBE_SNAPSHOT=1 (compare two in Chrome's DevTools to see what a step kept).
 */
const PROBE_SOURCE = `
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
const dir = process.env.MEMORY_PROBE_DIR;
const kb = (text, field) =>
  Number((text.split(String.fromCharCode(10)).find((l) => l.startsWith(field + ':')) ?? '').replace(/[^0-9]/g, ''));
function sample() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { committed: s.space_size, used: s.space_used_size }]),
  );
  return { ...process.memoryUsage(), rssAnonKb: kb(status, 'RssAnon'), rssFileKb: kb(status, 'RssFile'), spaces };
}
let n = 0;
process.on('SIGUSR2', () => {
  const before = sample();
  globalThis.gc();
  globalThis.gc();
  const after = sample();
  const k = n++;
  if (process.env.MEMORY_PROBE_SNAPSHOT === '1') writeHeapSnapshot(dir + '/' + k + '.heapsnapshot');
  // Renamed into place: the reader polling for it never sees it half written.
  writeFileSync(dir + '/' + k + '.json.partial', JSON.stringify({ before, after }));
  renameSync(dir + '/' + k + '.json.partial', dir + '/' + k + '.json');
});
`;

interface Sample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  rssAnonKb: number;
  rssFileKb: number;
  spaces: Record<string, { committed: number; used: number }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/**
 * utime + stime in ms (/proc stat fields 14 and 15, USER_HZ 100) of a process, or of one of its
 * threads (the main thread's tid is the pid).
 */
function cpuMs(pid: number, tid?: number): number {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-memory-'));
  const probeDir = join(dir, 'probe');
  mkdirSync(probeDir);
  const port = await freePort();
  const own = startFlags(root);
  const flags = [...(trace ? ['--trace-gc-verbose'] : []), ...own.args, ...extraFlags];
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      `data:text/javascript,${encodeURIComponent(PROBE_SOURCE)}`,
      ...flags,
      'dist/standalone.js',
    ],
    {
      cwd: root,
      env: {
        ...own.env,
        ...benchServerEnv(dir),
        ...extraEnv,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        MEMORY_PROBE_DIR: probeDir,
        MEMORY_PROBE_SNAPSHOT: process.argv.includes('--snapshot') ? '1' : '0',
      },
      stdio: ['ignore', trace ? openSync(trace, 'w') : 'ignore', 'inherit'],
    },
  );
  const pid = child.pid!;
  const gateway = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${gateway}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(50);
  const login = await json<{ token: string; user: { id: string } }>(`${gateway}/auth/login`, {
    method: 'POST',
    body: JSON.stringify(BENCH_ADMIN),
  });
  await seed(join(dir, 'agora.db'), BENCH_DOMAIN, {
    posts: seedPosts,
    members: 200,
    circles: 1000,
    ownerId: login.user.id,
    ownerCircles: 5,
  });
  console.log(`flags: ${flags.join(' ')}; env: ${JSON.stringify({ ...own.env, ...extraEnv })}`);
  console.log(
    '| Posts | RSS | after full GC: RSS, anon + file | heap used / committed | old used / committed | new committed | CPU per post: process / main thread | p50 | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  let probes = 0;
  const report = async (posts: number, cpu: string, p50: string) => {
    await sleep(waitSeconds * 1000);
    const rss = rssMb(pid);
    process.kill(pid, 'SIGUSR2');
    const file = join(probeDir, `${probes++}.json`);
    while (!existsSync(file)) await sleep(100);
    const { after } = JSON.parse(readFileSync(file, 'utf8')) as { before: Sample; after: Sample };
    const old = after.spaces.old_space!;
    console.log(
      `| ${posts} | ${rss.toFixed(0)} | ${rssMb(pid).toFixed(0)}, ${(after.rssAnonKb / 1024).toFixed(0)} + ${(after.rssFileKb / 1024).toFixed(0)} | ${mb(after.heapUsed)} / ${mb(after.heapTotal)} | ${mb(old.used)} / ${mb(old.committed)} | ${mb(after.spaces.new_space!.committed)} | ${cpu} | ${p50} | ${loadavg()[0]!.toFixed(1)} |`,
    );
  };
  await report(0, '—', '—');
  let total = 0;
  for (const n of steps) {
    const cpu0 = cpuMs(pid);
    const main0 = cpuMs(pid, pid);
    const r = await autocannon({
      url: `${gateway}/outbox`,
      connections: 10,
      amount: n,
      timeout: 60,
      headers: { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' },
      ...postingNotes('memory'),
    });
    if (r.non2xx || r.errors) console.log(`  WARNING: ${r.non2xx} non-2xx, ${r.errors} errors`);
    total += n;
    const perPost = (ms: number) => (ms / n).toFixed(2);
    await report(
      total,
      `${perPost(cpuMs(pid) - cpu0)} / ${perPost(cpuMs(pid, pid) - main0)} ms`,
      `${r.latency.p50} ms`,
    );
  }
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (process.argv.includes('--snapshot')) console.log(`heap snapshots in ${probeDir}`);
  else rmSync(dir, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
