/**
 * Start time and idle memory of the standalone process, run from the TypeScript sources through
 * tsx (how production ran before) and compiled (dist/standalone.js, how it runs now; or the
 * bundle under `--enable-source-maps`, which also loads node_modules' source maps), in
 * alternating rounds on the same machine. Each variant keeps its own data directory, so round 1
 * is a first start (empty database, admin created) and later rounds are restarts.
 *
 *   npm run build && node --import tsx bench/startup.ts [rounds=5] [idleSeconds=10] [tsx,compiled] [dataDir]
 *
 * With `dataDir` (a seeded directory, e.g. kept by `npm run bench -- --scale --keep`) every round
 * restarts on that data instead of a fresh directory per variant: idle memory after seeding.
 *
 * Start time: spawn to the "Agora is running" banner. Memory: RSS of the Node process and of any
 * child (tsx's esbuild service), after idling.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';

const ROOT = join(__dirname, '..');
const rounds = Number(process.argv[2] ?? 5);
const idleSeconds = Number(process.argv[3] ?? 10);

const variants = {
  tsx: ['--import', 'tsx', 'standalone/src/main.ts'],
  compiled: ['dist/standalone.js'], // the loader: source maps for dist/ only
  'compiled-all-maps': ['--enable-source-maps', 'dist/standalone.bundle.js'], // node_modules' maps too
} as const;
type Variant = keyof typeof variants;
const chosen = (process.argv[4] ?? 'tsx,compiled').split(',') as Variant[];
const seeded = process.argv[5];

function rssMb(pid: number): number {
  try {
    return Math.round(
      Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    );
  } catch {
    return 0;
  }
}

function children(pid: number): Array<{ pid: number; name: string }> {
  const out: Array<{ pid: number; name: string }> = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const name = /\((.*)\)/.exec(stat)?.[1] ?? '';
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid))
        out.push({ pid: Number(d), name });
    } catch {
      // gone
    }
  }
  return out;
}

async function once(variant: Variant, dataDir: string) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...variants[variant]], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'bench_admin',
      ADMIN_PASSWORD: 'bench-admin-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const readyMs = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('Agora is running')) resolve(performance.now() - started);
    });
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => reject(new Error(`${variant} exited with ${code}:\n${out}`)));
  });
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const result = {
    variant,
    readyMs: Math.round(readyMs),
    nodeRssMb: rssMb(child.pid!),
    children: children(child.pid!).map((k) => `${k.name}:${rssMb(k.pid)}MB`),
  };
  await new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return result;
}

async function main(): Promise<void> {
  const dirs = Object.fromEntries(
    chosen.map((v) => [v, seeded ?? mkdtempSync(join(tmpdir(), `startup-${v}-`))]),
  ) as Record<Variant, string>;
  const all: Array<Awaited<ReturnType<typeof once>>> = [];
  try {
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first so machine drift hits both alike.
      const order = r % 2 ? [...chosen].reverse() : chosen;
      for (const v of order) {
        const res = await once(v, dirs[v]);
        all.push(res);
        console.log(JSON.stringify({ round: r + 1, ...res }));
      }
    }
  } finally {
    if (!seeded) for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const v of chosen) {
    const rs = all.filter((x) => x.variant === v);
    const restarts = rs.slice(1);
    console.log(
      JSON.stringify({
        variant: v,
        firstStartMs: rs[0]!.readyMs,
        restartMsMedian: med(restarts.map((x) => x.readyMs)),
        restartMsRange: [
          Math.min(...restarts.map((x) => x.readyMs)),
          Math.max(...restarts.map((x) => x.readyMs)),
        ],
        nodeRssMbMedian: med(rs.map((x) => x.nodeRssMb)),
        nodeRssMbRange: [Math.min(...rs.map((x) => x.nodeRssMb)), Math.max(...rs.map((x) => x.nodeRssMb))],
      }),
    );
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
