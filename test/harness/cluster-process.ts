/**
 * One process of the cluster (test/harness/cluster.ts): `node dist/<service>.js` in a process
 * group of its own, its output kept, and the ways to wait for it and stop it. An exit hook kills
 * whatever is left if the test process ends first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Lines of output kept per process (the tail printed when a step fails). */
const KEEP_LINES = 400;
/**
 * The Deployments' terminationGracePeriodSeconds is 30; a test waits less before SIGKILL. The
 * processes drain for at most DRAIN_SECONDS (SHUTDOWN_GRACE_SECONDS), well inside it, so a
 * process still there at SIGKILL time is one whose shutdown hangs, even on a busy machine.
 */
export const GRACE_MS = 20_000;
export const DRAIN_SECONDS = 5;

export interface ServiceProcess {
  /** The entry point (`dist/<name>.js`). */
  name: string;
  /** `social`, `social-2`, ...: the name with its replica number after the first. */
  label: string;
  url: string;
  /** Its Prometheus endpoint (METRICS_PORT, a port of its own per process). */
  metricsUrl: string;
  pid: number;
  /** The last `n` lines the process wrote (stdout and stderr interleaved). */
  tail(n?: number): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
}

/** Children still running, killed (whole groups) if the test process exits before `stop()`. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) signalGroup(child.pid, 'SIGKILL');
});

/** Runs `node dist/<name>.js` in a process group of its own and keeps its output. */
export function launch(
  name: string,
  label: string,
  env: Record<string, string>,
  port: number,
  metricsPort: number,
): ServiceProcess {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', `${name}.js`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let partial = '';
  const keep = (b: Buffer) => {
    const parts = (partial + b.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    if (lines.length > KEEP_LINES) lines.splice(0, lines.length - KEEP_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  live.add(child);
  void exited.then(() => live.delete(child));
  return {
    name,
    label,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: child.pid!,
    exited,
    tail: (n = 60) => [...lines, ...(partial ? [partial] : [])].slice(-n).join('\n'),
  };
}

export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM, SIGKILL after the grace period; resolves with the exit code (or signal). */
export async function stopProcess(p: ServiceProcess): Promise<number | string> {
  signalGroup(p.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(p.pid, 'SIGKILL'), GRACE_MS);
  const result = await p.exited;
  clearTimeout(timer);
  // The process is gone; anything it left in its group goes too.
  signalGroup(p.pid, 'SIGKILL');
  return result;
}

/**
 * Resolves once the process is ready: GET /health answers 200, or for a worker without HTTP
 * (`readyLine`), once it wrote that line. Fails at once if the process exits.
 */
export async function ready(p: ServiceProcess, deadlineMs: number, readyLine?: string): Promise<void> {
  let exitedWith: number | string | undefined;
  void p.exited.then((c) => (exitedWith = c));
  let last = 'no answer';
  while (Date.now() < deadlineMs) {
    if (exitedWith !== undefined) throw new Error(`${p.label} exited (${exitedWith}) before it was ready`);
    if (readyLine) {
      if (p.tail(KEEP_LINES).includes(readyLine)) return;
    } else {
      try {
        const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(2000) });
        last = `${res.status} ${await res.text()}`;
        if (res.status === 200) return;
      } catch (err) {
        last = (err as Error).message;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `${p.label}: ${readyLine ? `no "${readyLine}"` : `GET /health not 200 (last: ${last})`} in time`,
  );
}
