/**
 * A RabbitMQ broker of a test's own (`rabbitmq-server` from Debian as a child process, on free
 * ports, its node name, database, logs and cookie in a temporary directory), so a test may stop
 * and start it without touching the broker every other test uses. Its data directory survives a
 * stop: durable queues and the messages in them are there again after `start()`, as after a
 * broker restart in production. The default user `guest` may connect from the loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@agora/common/db';
import { terminateChild } from './child';

export interface PrivateRabbitMq {
  url: string;
  /** Stops the broker (SIGTERM: a clean shutdown) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

export async function startPrivateRabbitMq(): Promise<PrivateRabbitMq> {
  const port = await freePort();
  // The Erlang distribution port defaults to AMQP port + 20000, which may be out of range or
  // taken (the machine's own broker uses 25672): a free one of its own.
  const distPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'agora-rabbitmq-'));
  for (const sub of ['mnesia', 'log', 'home']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\n`);
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  const env = {
    ...process.env,
    HOME: join(dir, 'home'), // the Erlang cookie
    RABBITMQ_NODENAME: `agora-test-${process.pid}-${port}@localhost`,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'feature_flags'),
    RABBITMQ_PLUGINS_EXPAND_DIR: join(dir, 'plugins-expand'),
    RABBITMQ_PID_FILE: join(dir, 'pid'),
  };
  let child: ChildProcess | undefined;
  const live = new Set<ChildProcess>();
  // The script runs the Erlang VM as its child: a SIGKILL of the script would leave it behind.
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
    const vm = beamPid(dir);
    if (vm)
      try {
        process.kill(vm, 'SIGKILL');
      } catch {
        // gone already
      }
  });
  const start = async () => {
    const c = spawn(SERVER, [], { env, stdio: 'ignore' });
    live.add(c);
    c.once('exit', () => live.delete(c));
    child = c;
    try {
      await waitForPort(port, 60_000);
    } catch (err) {
      throw new Error(`private RabbitMQ did not start: ${(err as Error).message}; logs in ${dir}/log`);
    }
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    await terminateChild(c);
  };
  await start();
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Erlang VM's pid, from the pid file the broker writes once it runs. */
function beamPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
