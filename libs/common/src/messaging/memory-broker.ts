/**
 * The in-process stand-in for RabbitMQ: named queues with topic bindings, ready lists, dead
 * lists and delay timers. Buses are "connections" to it; several buses on one broker behave like
 * several processes on one RabbitMQ vhost (shared queues, competing consumers), which is how
 * the contract suite exercises consumer failover without a broker.
 */
import { topicMatches } from './topic';
import type { Envelope } from './codec';

/** Opaque handle; pass the same broker to several memory buses to let them share queues. */
export interface MemoryBroker {
  readonly kind: 'memory-broker';
}

export interface MemoryConsumer {
  /** Free slots decide who gets the next message; see MemoryBrokerImpl.dispatch. */
  hasCapacity(): boolean;
  deliver(queue: MemoryQueue, env: Envelope): void;
}

export interface MemoryQueue {
  readonly name: string;
  readonly bindings: Set<string>;
  readonly ready: Envelope[];
  readonly dead: Envelope[];
  readonly consumers: MemoryConsumer[];
  /** Round-robin cursor, so competing consumers share the work like AMQP consumers do. */
  next: number;
  scheduled: boolean;
}

export class MemoryBrokerImpl implements MemoryBroker {
  readonly kind = 'memory-broker' as const;
  private readonly queues = new Map<string, MemoryQueue>();
  private readonly timers = new Set<NodeJS.Timeout>();

  queue(name: string): MemoryQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = { name, bindings: new Set(), ready: [], dead: [], consumers: [], next: 0, scheduled: false };
      this.queues.set(name, q);
    }
    return q;
  }

  existing(name: string): MemoryQueue | undefined {
    return this.queues.get(name);
  }

  /** Topic exchange: a copy to every queue bound *now*; unbound names are dropped, as in AMQP. */
  route(name: string, env: Envelope): void {
    for (const q of this.queues.values()) {
      if ([...q.bindings].some((pattern) => topicMatches(pattern, name)))
        this.push(q, { ...env, headers: { ...env.headers } });
    }
  }

  push(q: MemoryQueue, env: Envelope, front = false): void {
    if (front) q.ready.unshift(env);
    else q.ready.push(env);
    this.schedule(q);
  }

  /**
   * Delivery always happens on a later macrotask, never inside publish(): a handler must not run
   * in the publisher's stack (or its transaction) in standalone mode when it would not in split mode.
   */
  schedule(q: MemoryQueue): void {
    if (q.scheduled) return;
    q.scheduled = true;
    setImmediate(() => {
      q.scheduled = false;
      this.dispatch(q);
    });
  }

  /** Runs `fn` after `ms`; unref'd so a pending retry never keeps a stopping process alive. */
  later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Drops pending delays; only for a broker private to one bus that is closing. */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private dispatch(q: MemoryQueue): void {
    while (q.ready.length > 0) {
      const consumer = this.pickConsumer(q);
      if (!consumer) return;
      consumer.deliver(q, q.ready.shift()!);
    }
  }

  private pickConsumer(q: MemoryQueue): MemoryConsumer | undefined {
    for (let i = 0; i < q.consumers.length; i++) {
      const idx = (q.next + i) % q.consumers.length;
      const c = q.consumers[idx];
      if (c?.hasCapacity()) {
        q.next = idx + 1;
        return c;
      }
    }
    return undefined;
  }
}

export function createMemoryBroker(): MemoryBroker {
  return new MemoryBrokerImpl();
}
