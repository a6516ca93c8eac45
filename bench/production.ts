/**
 * The production entry under benchmark: `node dist/standalone.js` of a checkout with the flags its
 * `npm start` execs it with, spawned on a data directory with the benchmark's settings. Ready means `GET /health`
 * answers 200 (the restart target: spawn to ready); memory is the resident set of the
 * process and of its children (the code before the port ran FerretDB as a child).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';
import { benchServerEnv } from './embedded';

export interface ProductionServer {
  gateway: string;
  pid: number;
  /** Spawn to the first 200 of `/health`, in ms. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Builds `dist/` of a checkout when it is missing or older than a source (its own build script). */
export function buildIfStale(root: string): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`build of ${root} failed (${r.status})`);
}

/**
 * The Node flags and environment defaults a checkout's `npm start` runs its entry with: the
 * `exec node <flags> dist/standalone.js` line of its scripts/start.sh and the variables it
 * exports with a literal default (`export NAME="${NAME:-value}"`). None for a checkout that has none.
 */
export function startFlags(root: string): { args: string[]; env: Record<string, string> } {
  let sh = '';
  try {
    sh = readFileSync(join(root, 'scripts', 'start.sh'), 'utf8');
  } catch {
    return { args: [], env: {} };
  }
  const args = (/^exec node (.*?)\s*dist\/standalone\.js/m.exec(sh)?.[1] ?? '').split(/\s+/).filter(Boolean);
  const env = Object.fromEntries(
    // Literal defaults only (one naming another variable is the script's own business).
    [...sh.matchAll(/^export (\w+)="\$\{\1:-([^}$]*)\}"/gm)].map((m) => [m[1]!, m[2]!]),
  );
  return { args, env };
}

export async function startProduction(
  root: string,
  dir: string,
  extraEnv: Record<string, string> = {},
): Promise<ProductionServer> {
  const port = await freePort();
  const started = performance.now();
  const flags = startFlags(root);
  const child: ChildProcess = spawn(process.execPath, [...flags.args, 'dist/standalone.js'], {
    cwd: root,
    env: {
      ...flags.env,
      ...benchServerEnv(dir, extraEnv),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const gateway = `http://127.0.0.1:${port}`;
  for (;;) {
    if (gone) throw new Error(`${root}: dist/standalone.js exited before ready:\n${stderr}`);
    const ok = await fetch(`${gateway}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - started;
  return {
    gateway,
    pid: child.pid!,
    readyMs,
    stop: async () => {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssKb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(join('/proc', d, 'stat'), 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid)) out.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** RSS in MB of a process and of its children (FerretDB in the code before the port). */
export function footprintMb(pid: number): { node: number; children: number; total: number } {
  const node = rssKb(pid) / 1024;
  const children = childPids(pid).reduce((sum, p) => sum + rssKb(p), 0) / 1024;
  return { node, children, total: node + children };
}
