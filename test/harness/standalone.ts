/**
 * Boots the standalone wiring as `npm start` runs it: SQLite in this process, in a data directory
 * of its own (pass `MONGO_URL` in `env` for the MongoDB adapter on the run's FerretDB instead).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '@agora/common/config';
import { startStandalone, type Standalone } from '@agora/standalone';

export interface TestServer extends Standalone {
  config: Config;
  dataDir: string;
}

export const ADMIN = { username: 'root_admin', password: 'correct-horse-battery' };

export async function bootServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agora-e2e-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
  );
  const server = await startStandalone(config);
  return {
    ...server,
    config,
    dataDir,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A tiny JSON client for one server. */
export function client(base: string) {
  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<JsonResponse<T>> => {
    const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined
        ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }
        : {}),
    });
    const text = await res.text();
    let body: unknown = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { raw: text };
    }
    return { status: res.status, headers: res.headers, body: body as T };
  };
  return {
    get: <T = Record<string, unknown>>(
      path: string,
      opts?: { token?: string; headers?: Record<string, string> },
    ) => call<T>('GET', path, opts),
    post: <T = Record<string, unknown>>(
      path: string,
      body?: unknown,
      opts?: { token?: string; headers?: Record<string, string> },
    ) => call<T>('POST', path, { ...opts, body }),
    call,
  };
}

export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  stepMs = 250,
): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}
