/**
 * The standalone server as the embedded-database benchmarks run it (scale, outbox-cpu,
 * outbox-profile): its own data directory, no rate limits, the timeline page cache off (a read
 * costs what the first read after a write costs), and none of the external services the shell
 * may point at (standalone keeps SQLite in its own process).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const BENCH_DOMAIN = 'bench.test';
export const BENCH_ADMIN = { username: 'bench_admin', password: 'bench-password' };

/** The server's settings for a benchmark run in `dir`. */
export function benchSettings(dir: string): Record<string, string> {
  return {
    DATA_DIR: dir,
    DOMAIN: BENCH_DOMAIN,
    PUBLIC_URL: `http://${BENCH_DOMAIN}`,
    RATE_LIMITING_ENABLED: 'false',
    TIMELINE_CACHE_ENTRIES: '0',
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
  };
}

/** The environment of a server process spawned for a benchmark run in `dir`. */
export function benchServerEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...benchSettings(dir) };
  for (const k of ['MONGO_URL', 'REDIS_URL', 'AMQP_URL', 'S3_ENDPOINT']) delete env[k];
  // After the removals: a variant may set one of them (the MongoDB adapter's run sets MONGO_URL).
  return { ...env, ...extra };
}

type PostingClient = { setBody(b: string): void; on(e: string, f: () => void): void };

/** autocannon options that POST a fresh body on every request (`make(n)` for the n-th). */
export function posting(make: (n: number) => unknown): {
  method: 'POST';
  setupClient: (client: PostingClient) => void;
} {
  let n = 0;
  return {
    method: 'POST',
    setupClient: (client) => {
      const next = () => client.setBody(JSON.stringify(make(n++)));
      next();
      client.on('response', next);
    },
  };
}

/** POSTs a new public Note on every request. */
export function postingNotes(label: string): ReturnType<typeof posting> {
  return posting((n) => ({
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: `${label} ${process.pid} ${n} ${Math.random()}` },
  }));
}

export interface BenchServer {
  gateway: string;
  /** The server's database, to seed through: its MongoDB URL, or the embedded SQLite file. */
  database: string;
  pid: number;
  /** SIGTERM, resolved when the process has exited. */
  stop(): Promise<void>;
}

/** Starts `<root>/bench/server.ts` (standalone wiring) in its own process on the data in `dir`. */
export async function startBenchServer(
  root: string,
  dir: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', 'server.ts')], {
    cwd: root,
    env: benchServerEnv(dir, extraEnv),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`bench server exited ${c}`)));
  });
  const urls = JSON.parse(line) as { gateway: string; mongoUrl?: string; sqlitePath?: string };
  return {
    gateway: urls.gateway,
    database: urls.mongoUrl ?? urls.sqlitePath!,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A JSON request that must succeed (2xx). */
export async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
