/**
 * MessageBus over RabbitMQ (amqplib). The connection (amqp-connection.ts) survives broker
 * restarts and network drops; this class keeps the list of consumers to restart on each new
 * connection, routes publishes, and drains on close. docs/messaging.md has the topology.
 */
import type { ChannelModel, Message } from 'amqplib';
import type { Logger } from '../logger';
import { AmqpConnection } from './amqp-connection';
import {
  cancelConsumer,
  closeConsumer,
  startConsumer,
  type ConsumerDeps,
  type ConsumerSpec,
} from './amqp-consumer';
import { consumePolicy } from './retry';
import { newEnvelope, toBusMessage, withPublishSpan } from './codec';
import {
  DEFAULT_EXCHANGE,
  deadQueueName,
  declareEventDelay,
  declareQueueDelay,
  decodeMessage,
  delayName,
  publishProperties,
} from './amqp-topology';
import {
  BusClosedError,
  PublishTimeoutError,
  type BusMessage,
  type ConsumeOptions,
  type Handler,
  type DepthAware,
  type MessageBus,
  type PublishOptions,
  type QueueDepth,
} from './types';

export interface AmqpBusOptions {
  url: string;
  /** Topic exchange for events. Default 'agora.events'. */
  exchange?: string;
  logger: Logger;
  /** Names the connection in the RabbitMQ UI and stamps appId on published messages. */
  service: string;
  /** How long publish/enqueue/subscribe wait for a connection and confirm. Default 30 s. */
  timeoutMs?: number;
  /** How long close() waits for running handlers before closing anyway. Default 30 s. */
  drainTimeoutMs?: number;
}

const SYSTEM = 'rabbitmq';
/**
 * The longest an `ifConnected` publish takes once started: the broker connection may drop between
 * the check and the confirm, and waiting for the reconnection is what `ifConnected` avoids.
 */
const IF_CONNECTED_MS = 5_000;

class AmqpBus implements MessageBus {
  private readonly exchange: string;
  private readonly timeoutMs: number;
  private readonly drainTimeoutMs: number;
  private readonly conn: AmqpConnection;
  private readonly specs: ConsumerSpec[] = [];
  private readonly handlers = new Set<Promise<void>>();
  private readonly publishes = new Set<Promise<void>>();
  private readonly deps: ConsumerDeps;
  /** Publishes stay allowed while close() drains handlers: a handler may publish follow-up events. */
  private acceptsPublishes = true;
  private closing: Promise<void> | undefined;

  constructor(private readonly opts: AmqpBusOptions) {
    this.exchange = opts.exchange ?? DEFAULT_EXCHANGE;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.drainTimeoutMs = opts.drainTimeoutMs ?? 30_000;
    this.conn = new AmqpConnection({
      url: opts.url,
      service: opts.service,
      exchange: this.exchange,
      logger: opts.logger,
      // A reconnect during close() must not resume consuming.
      onConnected: async (model) => {
        if (!this.closing) await Promise.all(this.specs.map((spec) => this.ensureStarted(spec, model)));
      },
    });
    this.deps = {
      exchange: this.exchange,
      service: opts.service,
      logger: opts.logger,
      publisher: this.conn.publisher,
      publishTimeoutMs: this.timeoutMs,
      track: (task) => void this.track(this.handlers, task),
      onLost: (model, reason) => this.conn.channelLost(model, reason),
    };
  }

  publish(name: string, payload: unknown, opts?: PublishOptions): Promise<void> {
    return this.send(name, payload, opts, async (delayMs, deadline) => {
      if (!delayMs) return { exchange: this.exchange, routingKey: name };
      const target = delayName(this.exchange, delayMs);
      await this.conn.declareOnce(target, deadline, (ch) => declareEventDelay(ch, this.exchange, delayMs));
      return { exchange: target, routingKey: name };
    });
  }

  enqueue(queue: string, payload: unknown, opts?: PublishOptions): Promise<void> {
    return this.send(queue, payload, opts, async (delayMs, deadline) => {
      // Declared here too, so jobs enqueued before any worker started are kept, not dropped.
      await this.conn.declareOnce(
        queue,
        deadline,
        async (ch) => void (await ch.assertQueue(queue, { durable: true })),
      );
      if (!delayMs) return { exchange: '', routingKey: queue };
      const target = delayName(queue, delayMs);
      await this.conn.declareOnce(target, deadline, (ch) => declareQueueDelay(ch, queue, delayMs));
      return { exchange: '', routingKey: target };
    });
  }

  private send(
    name: string,
    payload: unknown,
    opts: PublishOptions | undefined,
    route: (delayMs: number, deadline: number) => Promise<{ exchange: string; routingKey: string }>,
  ): Promise<void> {
    if (this.closing && !this.acceptsPublishes) return Promise.reject(new BusClosedError());
    if (opts?.ifConnected && !this.conn.healthy)
      return Promise.reject(
        new PublishTimeoutError(
          `Message broker not connected${this.conn.detail ? ` (${this.conn.detail})` : ''}`,
        ),
      );
    const task = withPublishSpan(SYSTEM, name, async () => {
      const env = newEnvelope(name, payload, opts);
      const deadline =
        Date.now() + (opts?.ifConnected ? Math.min(this.timeoutMs, IF_CONNECTED_MS) : this.timeoutMs);
      const delayMs = opts?.delayMs && opts.delayMs > 0 ? Math.round(opts.delayMs) : 0;
      const { exchange, routingKey } = await route(delayMs, deadline);
      const props = publishProperties(env, this.opts.service);
      await this.conn.publisher.send(exchange, routingKey, Buffer.from(env.body), props, deadline);
    });
    return this.track(this.publishes, task);
  }

  subscribe<T>(queue: string, names: string[], handler: Handler<T>, opts?: ConsumeOptions): Promise<void> {
    if (names.length === 0)
      return Promise.reject(new RangeError(`subscribe(${queue}) needs at least one event name`));
    const policy = consumePolicy(opts);
    return this.addConsumer({ queue, bindings: [...names], handler: handler as Handler<unknown>, policy });
  }

  work<T>(queue: string, handler: Handler<T>, opts?: ConsumeOptions): Promise<void> {
    return this.addConsumer({
      queue,
      bindings: [],
      handler: handler as Handler<unknown>,
      policy: consumePolicy(opts),
    });
  }

  private async addConsumer(spec: ConsumerSpec): Promise<void> {
    if (this.closing) throw new BusClosedError();
    // Registered first: any reconnect from now on starts it too, whoever gets there first.
    this.specs.push(spec);
    const deadline = Date.now() + this.timeoutMs;
    try {
      for (;;) {
        const model = await this.conn.whenReady(deadline);
        try {
          await this.ensureStarted(spec, model);
          return;
        } catch (err) {
          // Connection still up: a real refusal (e.g. queue declared with other arguments).
          if (this.conn.isCurrent(model)) throw err;
        }
      }
    } catch (err) {
      this.specs.splice(this.specs.indexOf(spec), 1);
      throw err;
    }
  }

  /** Starts `spec` on `model` once, whether asked by setup or by subscribe() racing it. */
  private ensureStarted(spec: ConsumerSpec, model: ChannelModel): Promise<void> {
    if (spec.startedOn !== model || !spec.starting) {
      spec.startedOn = model;
      spec.starting = startConsumer(spec, model, this.deps).then((active) => {
        spec.active = active;
      });
      spec.starting.catch(() => {
        if (spec.startedOn === model) spec.startedOn = undefined;
      });
    }
    return spec.starting;
  }

  async drainDead(queue: string, max = 100): Promise<BusMessage[]> {
    const model = await this.conn.whenReady(Date.now() + this.timeoutMs);
    const ch = await model.createChannel();
    ch.on('error', () => undefined);
    try {
      const dead = deadQueueName(queue);
      await ch.assertQueue(dead, { durable: true });
      const got: Message[] = [];
      while (got.length < max) {
        const m = await ch.get(dead, { noAck: false });
        if (!m) break;
        got.push(m);
      }
      // Acked only once all were read: a failure halfway leaves every message in the queue.
      for (const m of got) ch.ack(m);
      return got.map((m) => {
        const decoded = decodeMessage(m);
        return toBusMessage(decoded.env, 'payload' in decoded ? decoded.payload : decoded.env.body);
      });
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  /** Ready and dead-lettered messages of the queues this bus consumes (metrics read it on scrape). */
  async depths(): Promise<QueueDepth[]> {
    if (this.closing || !this.conn.healthy || this.specs.length === 0) return [];
    const model = await this.conn.whenReady(Date.now() + 1000);
    const ch = await model.createChannel();
    ch.on('error', () => undefined);
    try {
      const out: QueueDepth[] = [];
      for (const { queue, policy } of this.specs) {
        if (policy.exclusive) continue;
        const ready = await ch.checkQueue(queue);
        const dead = await ch.checkQueue(deadQueueName(queue));
        out.push({ queue, ready: ready.messageCount, dead: dead.messageCount });
      }
      return out;
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  health(): Promise<{ ok: boolean; detail?: string }> {
    if (this.closing) return Promise.resolve({ ok: false, detail: 'closed' });
    return Promise.resolve({ ok: this.conn.healthy, detail: this.conn.detail });
  }

  close(): Promise<void> {
    this.closing ??= this.drainAndClose();
    return this.closing;
  }

  private async drainAndClose(): Promise<void> {
    const actives = (): NonNullable<ConsumerSpec['active']>[] =>
      this.specs.flatMap((s) => (s.active ? [s.active] : []));
    await Promise.allSettled(actives().map(cancelConsumer));
    if (!(await settleWithin([...this.handlers], this.drainTimeoutMs))) {
      const pending = this.handlers.size;
      this.opts.logger.warn(
        { pending },
        'closing AMQP bus with handlers still running; the broker will redeliver their messages',
      );
    }
    this.acceptsPublishes = false;
    await settleWithin([...this.publishes], this.timeoutMs);
    await Promise.allSettled(actives().map(closeConsumer));
    await this.conn.close();
  }

  private track(set: Set<Promise<void>>, task: Promise<void>): Promise<void> {
    set.add(task);
    const forget = (): void => void set.delete(task);
    task.then(forget, forget);
    return task;
  }
}

/** True when every promise settled within `ms`. */
async function settleWithin(tasks: Array<Promise<unknown>>, ms: number): Promise<boolean> {
  if (tasks.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    Promise.allSettled(tasks).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return result;
}

export function createAmqpBus(opts: AmqpBusOptions): MessageBus & DepthAware {
  return new AmqpBus(opts);
}
