/**
 * A Redis server of a test's own (`redis-server` as a child process on a free port, nothing
 * saved), so a test may stop and start it without touching the Redis every other test uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForPort } from '@agora/common/db';
import { terminateChild } from './child';

export interface PrivateRedis {
  url: string;
  /** Stops the server (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const live = new Set<ChildProcess>();
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
  const start = async () => {
    const c = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    live.add(c);
    c.once('exit', () => live.delete(c));
    child = c;
    await waitForPort(port, 20_000);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    await terminateChild(c);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}
