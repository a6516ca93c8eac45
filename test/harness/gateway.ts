/** Boots a real gateway (in-process app or a separate process) in front of a test upstream. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { freePort, waitForPort } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { createApp, type GatewayApp } from '@agora/gateway';
import type { Upstream } from './upstream';

export const DOMAIN = 'edge.test';

export function gatewayEnv(upstream: Upstream, env: Record<string, string> = {}): Record<string, string> {
  const u = upstream.url;
  return {
    NODE_ENV: 'test',
    DOMAIN,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    SERVICE_URLS: `social=${u},admin=${u},federation=${u},notifications=${u}`,
    ...env,
  };
}

export async function startGateway(
  upstream: Upstream,
  env: Record<string, string> = {},
): Promise<GatewayApp & { url: string }> {
  const config = loadConfig({}, { ...gatewayEnv(upstream, env), PORT: '0' });
  const app = createApp(config, { logger: createLogger({ level: 'silent', service: 'test' }) });
  await app.start();
  return app as GatewayApp & { url: string };
}

/** A gateway in its own Node process (two of them share one Redis in the replica tests). */
export async function spawnGateway(
  upstream: Upstream,
  env: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../../services/gateway/src/main.ts')],
    {
      env: { ...process.env, ...gatewayEnv(upstream, env), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  await Promise.race([
    waitForPort(port, 30_000),
    new Promise((_, rej) => child.once('exit', (c) => rej(new Error(`gateway exited ${c}: ${stderr}`)))),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
