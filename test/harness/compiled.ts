/**
 * The compiled standalone (dist/standalone.js) as a child process, for the fault tier: a crash
 * is then what it is in production, the process exiting, and the test sees its exit code and
 * output instead of an exception inside jest. Started as `npm start` starts it: SQLite in the
 * process, in a data directory of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';

const ROOT = join(__dirname, '..', '..');

export const COMPILED_ADMIN = { username: 'fault_admin', password: 'fault-admin-password' };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CompiledServer {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Settles when the process exits (never rejects). */
  exited: Promise<Exit>;
  /** The process has not exited and its pid still answers signal 0. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL after the grace period; removes the data directory. */
  stop(): Promise<Exit>;
}

export interface StartOptions {
  /** Extra environment (on top of a test environment with rate limits off). */
  env?: Record<string, string>;
  /** Node flags before the entry, e.g. `['--import', 'tsx', '--import', file]`. */
  nodeArgs?: string[];
  /** Resolve once the port answers, even if the banner never comes (for processes meant to die). */
  timeoutMs?: number;
  /** A data directory to start on (a restart); the caller removes it. Default: a fresh one. */
  dataDir?: string;
}

/** Children still running, killed (whole groups) if the test process exits before `stop()`. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) killGroup(pid);
});

export async function startCompiled(opts: StartOptions = {}): Promise<CompiledServer> {
  if (isStale()) await buildAll();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'agora-fault-'));
  // A fixed PORT (a restart that peers reach at the same address) or a free one.
  const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), join(ROOT, 'dist', 'standalone.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: COMPILED_ADMIN.username,
      ADMIN_PASSWORD: COMPILED_ADMIN.password,
      RATE_LIMITING_ENABLED: 'false',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so nothing it started outlives a test that fails early.
    detached: true,
  });
  live.add(child.pid!);
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      live.delete(child.pid!);
      resolve(exit);
    }),
  );
  const server: CompiledServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    alive() {
      if (exit) return false;
      try {
        process.kill(child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    },
    async stop() {
      if (!exit) {
        child.kill('SIGTERM');
        // Past the server's own shutdown grace (SHUTDOWN_GRACE_SECONDS, 20 s by default: requests
        // still running then are cut and it exits 0), so only a shutdown that hangs is killed.
        const timer = setTimeout(() => killGroup(child.pid!), 30_000);
        await exited;
        clearTimeout(timer);
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return exit!;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  while (!output.includes('Agora is running')) {
    if (exit)
      throw new Error(`compiled standalone exited (${JSON.stringify(exit)}) before start:\n${output}`);
    if (Date.now() > deadline) {
      killGroup(child.pid!);
      throw new Error(`compiled standalone did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** A JSON call to the compiled server (fetch; the answer's body parsed, `{ raw }` if not JSON). */
export async function call<T = Record<string, unknown>>(
  server: Pick<CompiledServer, 'url'>,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  } catch {
    return { status: res.status, body: { raw: text } as T };
  }
}

/** A registered user's token; throws with the answer when registration fails. */
export async function registerOn(server: CompiledServer, username: string): Promise<string> {
  const res = await call<{ token?: string }>(server, 'POST', '/register', {
    body: { username, password: 'password123' },
  });
  if (res.status !== 201 || !res.body.token)
    throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export async function adminToken(server: CompiledServer): Promise<string> {
  const res = await call<{ token?: string }>(server, 'POST', '/auth/login', { body: COMPILED_ADMIN });
  if (res.status !== 200 || !res.body.token)
    throw new Error(`admin login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/**
 * The same process still serves: it never exited, `/health` answers 200 and an authenticated
 * call answers the caller. Throws with the process's last output otherwise.
 */
export async function expectStillServing(server: CompiledServer, token: string): Promise<void> {
  const tail = () => server.output().split('\n').slice(-40).join('\n');
  if (!server.alive()) throw new Error(`the server process ${server.pid} exited:\n${tail()}`);
  const health = await call(server, 'GET', '/health').catch((err: Error) => ({ status: 0, body: err }));
  if (health.status !== 200)
    throw new Error(`/health answered ${health.status} ${JSON.stringify(health.body)}:\n${tail()}`);
  const me = await call<{ user?: { username?: string } }>(server, 'GET', '/auth/me', { token });
  if (me.status !== 200 || !me.body.user?.username)
    throw new Error(`/auth/me answered ${me.status} ${JSON.stringify(me.body)}:\n${tail()}`);
  if (!server.alive()) throw new Error(`the server process ${server.pid} exited:\n${tail()}`);
}

export interface JobState {
  id: string;
  type: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  error: string | null;
  archiveName: string | null;
}

/** Polls a backup or restore job until it ended; throws with the last state after `timeoutMs`. */
export async function jobEnded(
  server: CompiledServer,
  token: string,
  id: string,
  timeoutMs = 60_000,
): Promise<JobState> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const res = await call<{ job: JobState }>(server, 'GET', `/admin/backup/${id}`, { token });
    if (res.status !== 200) throw new Error(`GET job ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    last = res.body.job;
    if (res.body.job.status === 'done' || res.body.job.status === 'failed') return res.body.job;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not end within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

/** A multipart upload through fetch (the whole body, well formed); the answer parsed. */
export async function uploadTo(
  server: CompiledServer,
  token: string,
  path: string,
  field: string,
  data: Buffer,
  filename: string,
  contentType = 'application/octet-stream',
): Promise<Answer> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type: contentType }), filename);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
