/**
 * In-process MessageBus for standalone mode and unit tests. Same semantics as the AMQP adapter
 * (async delivery, per-queue fan-out, competing consumers, retries on the same schedule, dead
 * letters, prefetch, draining close) but nothing is durable: a process crash loses every queued
 * message. docs/messaging.md lists the differences.
 */
import type { Logger } from '../logger';
import { MemoryBrokerImpl, type MemoryBroker, type MemoryConsumer, type MemoryQueue } from './memory-broker';
import { consumePolicy, retryDelay, type ConsumePolicy } from './retry';
import {
  describeError,
  newEnvelope,
  runInMessageContext,
  toBusMessage,
  withPublishSpan,
  type Envelope,
} from './codec';
import {
  BusClosedError,
  DEAD_REASON_HEADER,
  PermanentMessageError,
  type BusMessage,
  type ConsumeOptions,
  type Handler,
  type DepthAware,
  type MessageBus,
  type PublishOptions,
  type QueueDepth,
} from './types';

export interface MemoryBusOptions {
  logger: Logger;
  /** Share one broker between buses to simulate several processes; default: a private one. */
  broker?: MemoryBroker;
  /** How long close() waits for running handlers before handing their messages back. Default 30 s. */
  drainTimeoutMs?: number;
}

const SYSTEM = 'in-process';

interface Delivery {
  consumer: Consumer;
  queue: MemoryQueue;
  env: Envelope;
  /** Set when close() stopped waiting: the outcome of the handler no longer counts. */
  abandoned: boolean;
  done: Promise<void>;
}

class Consumer implements MemoryConsumer {
  running = 0;
  constructor(
    private readonly bus: MemoryBus,
    readonly handler: Handler<unknown>,
    readonly policy: ConsumePolicy,
  ) {}
  hasCapacity(): boolean {
    return this.running < this.policy.prefetch;
  }
  deliver(queue: MemoryQueue, env: Envelope): void {
    this.bus.deliver(this, queue, env);
  }
}

class MemoryBus implements MessageBus {
  private readonly broker: MemoryBrokerImpl;
  private readonly ownsBroker: boolean;
  private readonly logger: Logger;
  private readonly drainTimeoutMs: number;
  private readonly consumers: Array<{ queue: MemoryQueue; consumer: Consumer }> = [];
  private readonly inflight = new Set<Delivery>();
  private closing: Promise<void> | undefined;
  /** Publishes stay allowed while close() drains handlers: a handler may publish follow-up events. */
  private closed = false;

  constructor(opts: MemoryBusOptions) {
    if (opts.broker && !(opts.broker instanceof MemoryBrokerImpl))
      throw new TypeError('broker must come from createMemoryBroker()');
    this.broker = opts.broker ?? new MemoryBrokerImpl();
    this.ownsBroker = !opts.broker;
    this.logger = opts.logger;
    this.drainTimeoutMs = opts.drainTimeoutMs ?? 30_000;
  }

  publish(name: string, payload: unknown, opts?: PublishOptions): Promise<void> {
    return this.send(name, payload, opts, (env) => this.broker.route(name, env));
  }

  enqueue(queue: string, payload: unknown, opts?: PublishOptions): Promise<void> {
    // Like the AMQP adapter, enqueue declares the work queue so jobs wait for a worker.
    const q = this.broker.queue(queue);
    return this.send(queue, payload, opts, (env) => this.broker.push(q, env));
  }

  private async send(
    name: string,
    payload: unknown,
    opts: PublishOptions | undefined,
    deliver: (env: Envelope) => void,
  ): Promise<void> {
    if (this.closed) throw new BusClosedError();
    await withPublishSpan(SYSTEM, name, () => {
      const env = newEnvelope(name, payload, opts);
      if (opts?.delayMs && opts.delayMs > 0) this.broker.later(opts.delayMs, () => deliver(env));
      else deliver(env);
      return Promise.resolve();
    });
  }

  async subscribe<T>(
    queue: string,
    names: string[],
    handler: Handler<T>,
    opts?: ConsumeOptions,
  ): Promise<void> {
    this.assertOpen();
    if (names.length === 0) throw new RangeError(`subscribe(${queue}) needs at least one event name`);
    const policy = consumePolicy(opts); // validates before anything is bound
    const q = this.broker.queue(queue);
    for (const n of names) q.bindings.add(n);
    this.addConsumer(q, handler as Handler<unknown>, policy);
    await Promise.resolve();
  }

  async work<T>(queue: string, handler: Handler<T>, opts?: ConsumeOptions): Promise<void> {
    this.assertOpen();
    this.addConsumer(this.broker.queue(queue), handler as Handler<unknown>, consumePolicy(opts));
    await Promise.resolve();
  }

  private addConsumer(queue: MemoryQueue, handler: Handler<unknown>, policy: ConsumePolicy): void {
    const consumer = new Consumer(this, handler, policy);
    queue.consumers.push(consumer);
    this.consumers.push({ queue, consumer });
    this.broker.schedule(queue);
  }

  /** Called by the broker when `consumer` has a free slot and `queue` a ready message. */
  deliver(consumer: Consumer, queue: MemoryQueue, env: Envelope): void {
    consumer.running++;
    const delivery: Delivery = { consumer, queue, env, abandoned: false, done: Promise.resolve() };
    this.inflight.add(delivery);
    delivery.done = this.run(delivery);
  }

  private async run(d: Delivery): Promise<void> {
    const msg = toBusMessage(d.env, JSON.parse(d.env.body) as unknown);
    let failure: { err: unknown } | undefined;
    try {
      await runInMessageContext(SYSTEM, d.queue.name, msg, () => d.consumer.handler(msg));
    } catch (err) {
      failure = { err };
    }
    // close() gave up on this handler and already put the message back: nothing to settle.
    if (d.abandoned) return;
    this.inflight.delete(d);
    d.consumer.running--;
    if (failure) this.failed(d, msg, failure.err);
    this.broker.schedule(d.queue);
  }

  private failed(d: Delivery, msg: BusMessage, err: unknown): void {
    const { policy } = d.consumer;
    const log = { queue: d.queue.name, messageId: msg.id, name: msg.name, attempt: msg.attempt, err };
    if (policy.exclusive) return this.logger.warn(log, 'message handler failed; dropped (exclusive queue)');
    if (!(err instanceof PermanentMessageError) && msg.attempt < policy.maxAttempts) {
      const { delayMs } = retryDelay(policy, msg.attempt);
      this.logger.warn({ ...log, delayMs }, 'message handler failed; retrying');
      this.broker.later(delayMs, () => this.broker.push(d.queue, { ...d.env, attempt: d.env.attempt + 1 }));
      return;
    }
    this.logger.error(log, 'message handler failed; dead-lettered');
    d.queue.dead.push({ ...d.env, headers: { ...d.env.headers, [DEAD_REASON_HEADER]: describeError(err) } });
  }

  async drainDead(queue: string, max = 100): Promise<BusMessage[]> {
    await Promise.resolve();
    const dead = this.broker.existing(queue)?.dead.splice(0, max) ?? [];
    return dead.map((env) => toBusMessage(env, JSON.parse(env.body) as unknown));
  }

  /** Ready and dead-lettered messages of the queues this bus consumes (metrics read it on scrape). */
  depths(): Promise<QueueDepth[]> {
    const queues = new Set(this.consumers.map((c) => c.queue));
    return Promise.resolve(
      [...queues].map((q) => ({ queue: q.name, ready: q.ready.length, dead: q.dead.length })),
    );
  }

  health(): Promise<{ ok: boolean; detail?: string }> {
    return Promise.resolve(this.closing ? { ok: false, detail: 'closed' } : { ok: true, detail: SYSTEM });
  }

  close(): Promise<void> {
    this.closing ??= this.drainAndClose();
    return this.closing;
  }

  private async drainAndClose(): Promise<void> {
    for (const { queue, consumer } of this.consumers) {
      const i = queue.consumers.indexOf(consumer);
      if (i >= 0) queue.consumers.splice(i, 1);
      // As RabbitMQ deletes an exclusive queue with its connection: nothing collects events now.
      if (consumer.policy.exclusive) queue.bindings.clear();
    }
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.allSettled([...this.inflight].map((d) => d.done)).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.drainTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!drained) {
      // Same outcome as an AMQP connection closing with unacked messages: they go back to the
      // head of their queue for other consumers (of another bus on a shared broker).
      this.logger.warn(
        { pending: this.inflight.size },
        'message bus closed with handlers still running; requeued their messages',
      );
      for (const d of this.inflight) {
        d.abandoned = true;
        this.broker.push(d.queue, d.env, true);
      }
      this.inflight.clear();
    }
    this.closed = true;
    if (this.ownsBroker) this.broker.dispose();
  }

  private assertOpen(): void {
    if (this.closing) throw new BusClosedError();
  }
}

export function createMemoryBus(opts: MemoryBusOptions): MessageBus & DepthAware {
  return new MemoryBus(opts);
}
