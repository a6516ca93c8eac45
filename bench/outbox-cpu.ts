/**
 * Where the machine's time goes under a POST /outbox load on the embedded default: the CPU time
 * the standalone Node process (and any child) spends per accepted post, beside throughput
 * and p50 (10 connections), and the part of it on the server's main thread (the event loop). With `--prof`, the server also writes a V8 CPU profile
 * (`--cpu-prof`) into the directory printed at the end.
 *
 *   node --import tsx bench/outbox-cpu.ts [--posts=2000] [--seconds=10] [--connections=10]
 *     [--ownerCircles=5] [--prof]
 *
 * `--ownerCircles`: the circles the posting user is in (each post fans out to their timelines).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_ADMIN, BENCH_DOMAIN, benchServerEnv, postingNotes } from './embedded';
import { seed } from './seed';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    ownerCircles: { type: 'string', default: '5' },
    prof: { type: 'boolean', default: false },
  },
});
const TICK = 100; // USER_HZ

/**
 * utime + stime in ms (/proc/<pid>/stat fields 14 and 15) of a process, or of one of its threads
 * (`/proc/<pid>/task/<tid>/stat`; the main thread's tid is the pid).
 */
function cpuMs(pid: number, tid?: number): number {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICK;
}

/** utime and stime apart (ms) of one thread: user code against system calls (SQLite's I/O, sockets). */
function userSysMs(pid: number, tid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [(Number(f[11]) * 1000) / TICK, (Number(f[12]) * 1000) / TICK];
}

/**
 * The thread's time on a CPU and waiting for one (ms, /proc/<pid>/task/<tid>/schedstat): what
 * the wall time of its turns is made of, beside the time it sleeps (idle or blocked in I/O).
 */
function schedMs(pid: number, tid: number): [number, number] {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
  return [run! / 1e6, wait! / 1e6];
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => {
      try {
        const s = readFileSync(`/proc/${p}/stat`, 'utf8');
        return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-cpu-'));
  const env = benchServerEnv(dir);
  const flags = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${dir}/prof`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'bench/server.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  const { gateway, mongoUrl, sqlitePath } = JSON.parse(line) as {
    gateway: string;
    mongoUrl?: string;
    sqlitePath?: string;
  };
  const login = (await (
    await fetch(`${gateway}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_ADMIN),
    })
  ).json()) as { token: string; user: { id: string } };
  await seed(mongoUrl ?? sqlitePath!, BENCH_DOMAIN, {
    posts: Number(values.posts),
    members: 200,
    circles: 1000,
    ownerId: login.user.id,
    ownerCircles: Number(values.ownerCircles),
  });
  const pids = [child.pid!, ...childrenOf(child.pid!)];
  const run = () =>
    autocannon({
      timeout: 60,
      url: `${gateway}/outbox`,
      connections: Number(values.connections),
      duration: Number(values.seconds),
      headers: { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' },
      ...postingNotes('cpu'),
    });
  await run(); // warm-up
  await new Promise((r) => setTimeout(r, 2000));
  const main = child.pid!;
  const before = pids.map((p) => cpuMs(p));
  const mainBefore = cpuMs(main, main);
  const splitBefore = userSysMs(main, main);
  const schedBefore = schedMs(main, main);
  const r = await run();
  await new Promise((r) => setTimeout(r, 2000)); // the consumers' tail
  const after = pids.map((p) => cpuMs(p));
  const mainAfter = cpuMs(main, main);
  const splitAfter = userSysMs(main, main);
  const schedAfter = schedMs(main, main);
  const posts = r.requests.total ?? 0;
  console.log(
    `posts ${posts}, ${(posts / Number(values.seconds)).toFixed(1)}/s, p50 ${r.latency.p50} ms, non-2xx ${r.non2xx}`,
  );
  pids.forEach((p, i) =>
    console.log(
      `${i === 0 ? 'node' : readFileSync(`/proc/${p}/comm`, 'utf8').trim()} (${p}): ${((after[i]! - before[i]!) / posts).toFixed(2)} ms CPU per post`,
    ),
  );
  // The event loop's share: at saturation each request waits behind the others' turns on it.
  console.log(`node main thread: ${((mainAfter - mainBefore) / posts).toFixed(2)} ms CPU per post`);
  const per = (a: number, b: number) => ((b - a) / posts).toFixed(2);
  console.log(
    `node main thread: user ${per(splitBefore[0], splitAfter[0])} / system ${per(splitBefore[1], splitAfter[1])} ms per post; ` +
      `waiting for a CPU ${per(schedBefore[1], schedAfter[1])} ms per post`,
  );
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${main}/status`, 'utf8'))?.[1];
  console.log(`node RSS 2 s after the load: ${Math.round(Number(rss) / 1024)} MB`);
  if (sqlitePath && existsSync(`${sqlitePath}-wal`))
    console.log(`SQLite WAL after the load: ${Math.round(statSync(`${sqlitePath}-wal`).size / 2 ** 20)} MB`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (values.prof) console.log(`profile in ${dir}/prof`);
}
void main();
