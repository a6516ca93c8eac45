/**
 * The one RabbitMQ connection of a bus. Recovery is amqplib's own (exponential backoff with
 * jitter); on every (re)connection `setup` opens the confirm channel, declares the exchange and
 * lets the bus restart its consumers before anyone is told the connection is ready. Any channel
 * that dies while its connection lives (a protocol error) closes the connection, so there is
 * exactly one recovery path to reason about.
 */
import type { Channel, ChannelModel, RecoveringChannelModel } from 'amqplib';
import type { Logger } from '../logger';
import { Publisher } from './amqp-publisher';
import { declareEventExchange } from './amqp-topology';
import { BusClosedError, PublishTimeoutError } from './types';

export interface AmqpConnectionOptions {
  url: string;
  service: string;
  exchange: string;
  logger: Logger;
  /** Runs inside setup, after the publish channel exists; a throw makes amqplib reconnect. */
  onConnected: (model: ChannelModel) => Promise<void>;
}

export class AmqpConnection {
  readonly publisher: Publisher;
  private readonly recovering: Promise<RecoveringChannelModel>;
  /** The connection being set up or in use; cleared when it closes. */
  private current: ChannelModel | undefined;
  /** Set once setup finished on `current`. */
  private ready: ChannelModel | undefined;
  private readyWaiters: Array<() => void> = [];
  /** Declarations done on this connection (enqueue targets, delay queues). */
  private declared = new Map<string, Promise<void>>();
  private lastError: string | undefined;
  private stopping = false;

  constructor(private readonly opts: AmqpConnectionOptions) {
    const { logger } = opts;
    this.publisher = new Publisher(() => this.channelLost(this.current, 'publish channel closed'));
    // amqplib is loaded with the first connection: a process with no AMQP_URL never holds it.
    this.recovering = import('amqplib').then(({ connect }) =>
      connect(opts.url, {
        clientProperties: { connection_name: opts.service },
        recovery: {
          initialDelay: 250,
          maxDelay: 30_000,
          waitForConnect: false,
          setup: (model: ChannelModel, done: (err?: Error) => void) => {
            this.setup(model).then(() => done(), done);
          },
        },
      }),
    );
    this.recovering.then(
      (conn) => {
        conn.on('error', (err: Error) => logger.warn({ err }, 'AMQP connection error'));
        conn.on('disconnect', (err: Error) => logger.warn({ err }, 'AMQP connection lost; reconnecting'));
        conn.on('reconnect-scheduled', (info: { attempt: number; delay: number; error: Error }) => {
          this.lastError = info.error.message;
          logger.warn(
            { attempt: info.attempt, delayMs: info.delay, err: info.error },
            'AMQP reconnect scheduled',
          );
        });
        conn.on('connect', () => logger.info({ exchange: opts.exchange }, 'AMQP connected'));
      },
      (err: unknown) => logger.error({ err }, 'AMQP connection setup failed'),
    );
  }

  get healthy(): boolean {
    return this.ready !== undefined && this.publisher.connected;
  }

  get detail(): string {
    return this.healthy ? 'connected' : `reconnecting${this.lastError ? `: ${this.lastError}` : ''}`;
  }

  /** False once `model` closed: an error on it was the connection going away, not a refusal. */
  isCurrent(model: ChannelModel): boolean {
    return this.current === model;
  }

  private async setup(model: ChannelModel): Promise<void> {
    this.current = model;
    this.declared = new Map();
    model.on('close', () => {
      if (this.current !== model) return;
      this.current = undefined;
      this.ready = undefined;
    });
    const ch = await model.createConfirmChannel();
    ch.on('error', (err: Error) => this.opts.logger.warn({ err }, 'AMQP publish channel error'));
    await declareEventExchange(ch, this.opts.exchange);
    this.publisher.attach(ch);
    await this.opts.onConnected(model);
    this.ready = model;
    this.lastError = undefined;
    for (const wake of this.readyWaiters.splice(0)) wake();
  }

  /** Close a connection whose channel died, unless it is already going (then recovery is on it). */
  channelLost(model: ChannelModel | undefined, reason: string): void {
    if (this.stopping || !model) return;
    // Channels close before their connection emits 'close'; look again once that has happened.
    setImmediate(() => {
      if (this.stopping || this.current !== model) return;
      this.opts.logger.warn({ reason }, 'AMQP channel lost while connected; reconnecting');
      model.close().catch(() => undefined);
    });
  }

  /** The set-up connection, waiting for (re)connection until `deadline`. */
  whenReady(deadline: number): Promise<ChannelModel> {
    if (this.stopping) return Promise.reject(new BusClosedError());
    if (this.ready) return Promise.resolve(this.ready);
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        if (this.ready) resolve(this.ready);
        else this.whenReady(deadline).then(resolve, reject);
      };
      const timer = setTimeout(
        () => {
          this.readyWaiters = this.readyWaiters.filter((w) => w !== wake);
          reject(
            new PublishTimeoutError(
              `Message broker unreachable${this.lastError ? `: ${this.lastError}` : ''}`,
            ),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      this.readyWaiters.push(wake);
    });
  }

  /** Runs a declaration once per connection on a throwaway channel, so a failure cannot kill the publish channel. */
  declareOnce(key: string, deadline: number, declare: (ch: Channel) => Promise<void>): Promise<void> {
    let done = this.declared.get(key);
    if (!done) {
      const declared = this.declared;
      done = (async () => {
        const model = await this.whenReady(deadline);
        const ch = await model.createChannel();
        ch.on('error', () => undefined);
        try {
          await declare(ch);
        } finally {
          await ch.close().catch(() => undefined);
        }
      })();
      declared.set(key, done);
      done.catch(() => declared.delete(key));
    }
    return done;
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.publisher.close();
    for (const wake of this.readyWaiters.splice(0)) wake();
    const conn = await this.recovering.catch(() => undefined);
    await conn?.close().catch((err: unknown) => this.opts.logger.warn({ err }, 'AMQP close failed'));
  }
}
