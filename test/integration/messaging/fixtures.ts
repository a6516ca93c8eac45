/**
 * Adapter fixtures for the messaging contract suite: each hands out buses that share one broker
 * (a RabbitMQ vhost of this test file, or one in-process MemoryBroker), so "another process"
 * is simply another bus from the same fixture.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@agora/common/logger';
import {
  createAmqpBus,
  createMemoryBroker,
  createMemoryBus,
  type BusMessage,
  type Handler,
  type MemoryBroker,
  type MessageBus,
} from '@agora/common/messaging';
import { createVhost, uniqueName } from '../../harness/env';

const run = promisify(execFile);

export interface BusFixture {
  readonly name: 'memory' | 'amqp';
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A new bus on the shared broker; closed by closeAll(). */
  bus(opts?: { drainTimeoutMs?: number; logger?: Logger }): MessageBus;
  closeAll(): Promise<void>;
  /** Makes the broker drop every client connection (AMQP); the in-process bus has none. */
  dropConnections(): Promise<void>;
}

export const silentLogger = createLogger({ level: 'silent', service: 'test' });

/** A logger whose JSON lines are collected, to assert that something was logged. */
export function capturingLogger(level = 'warn'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level, service: 'test', destination }), lines };
}

abstract class BaseFixture {
  protected buses: MessageBus[] = [];
  async closeAll(): Promise<void> {
    const buses = this.buses.splice(0);
    await Promise.all(buses.map((b) => b.close()));
  }
  protected keep(bus: MessageBus): MessageBus {
    this.buses.push(bus);
    return bus;
  }
}

class MemoryFixture extends BaseFixture implements BusFixture {
  readonly name = 'memory' as const;
  private broker: MemoryBroker = createMemoryBroker();
  async setup(): Promise<void> {
    this.broker = createMemoryBroker();
    await Promise.resolve();
  }
  async teardown(): Promise<void> {
    await this.closeAll();
  }
  bus(opts: { drainTimeoutMs?: number; logger?: Logger } = {}): MessageBus {
    return this.keep(
      createMemoryBus({
        logger: opts.logger ?? silentLogger,
        broker: this.broker,
        drainTimeoutMs: opts.drainTimeoutMs,
      }),
    );
  }
  async dropConnections(): Promise<void> {
    await Promise.resolve();
  }
}

export class AmqpFixture extends BaseFixture implements BusFixture {
  readonly name = 'amqp' as const;
  private vhost: { name: string; url: string; remove: () => Promise<void> } | undefined;
  /** The vhost, for tests that talk to RabbitMQ directly. */
  get broker(): { name: string; url: string } {
    if (!this.vhost) throw new Error('AMQP fixture used before setup()');
    return this.vhost;
  }
  async setup(): Promise<void> {
    const name = uniqueName('msg');
    this.vhost = { name, ...(await createVhost(name)) };
  }
  async teardown(): Promise<void> {
    await this.closeAll();
    await this.vhost?.remove();
  }
  bus(opts: { drainTimeoutMs?: number; logger?: Logger } = {}): MessageBus {
    if (!this.vhost) throw new Error('AMQP fixture used before setup()');
    return this.keep(
      createAmqpBus({
        url: this.vhost.url,
        logger: opts.logger ?? silentLogger,
        service: 'contract-test',
        timeoutMs: 20_000,
        drainTimeoutMs: opts.drainTimeoutMs,
      }),
    );
  }
  async dropConnections(): Promise<void> {
    await run('rabbitmqctl', [
      '-q',
      'close_all_connections',
      '-p',
      this.broker.name,
      'contract test: simulated connection loss',
    ]);
  }
  /** `rabbitmqctl list_queues` of the vhost: name → { durable, arguments }. */
  async queues(): Promise<Map<string, { durable: boolean; arguments: Record<string, unknown> }>> {
    const { stdout } = await run('rabbitmqctl', [
      '-q',
      'list_queues',
      '-p',
      this.broker.name,
      'name',
      'durable',
      'arguments',
      '--formatter',
      'json',
    ]);
    // rabbitmqctl prints arguments as [name, type, value] triples.
    const rows = JSON.parse(stdout) as Array<{
      name: string;
      durable: boolean;
      arguments: Array<[string, string, unknown]>;
    }>;
    return new Map(
      rows.map((r) => [
        r.name,
        { durable: r.durable, arguments: Object.fromEntries(r.arguments.map(([k, , v]) => [k, v])) },
      ]),
    );
  }
}

export function fixtures(): BusFixture[] {
  return [new MemoryFixture(), new AmqpFixture()];
}

/** A Handler from a synchronous function; a throw fails the message like a rejection would. */
export function handle(fn: (m: BusMessage) => unknown): Handler {
  return (m) =>
    new Promise<void>((resolve) => {
      fn(m);
      resolve();
    });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` holds; fails with `what` so a timeout says which expectation was missed. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for: ${what}`);
    await sleep(20);
  }
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

let counter = 0;
/** A word unique to one test, for queue and event names (the vhost is shared by the file). */
export function uid(): string {
  counter += 1;
  return `t${Date.now().toString(36)}${counter}`;
}
