/**
 * Bus metrics, recorded by a decorator around any `MessageBus` (RabbitMQ or in-process), so the
 * adapters stay as they are: publishes by name and outcome, deliveries by queue and outcome
 * (`ok`; `retry` and `dead` as the adapters decide them: a `PermanentMessageError` or the last
 * attempt is dead-lettered), and the depth of the queues this process consumes, read on scrape.
 */
import type { ConsumeOptions, Handler, MessageBus, QueueDepth } from '../messaging/types';
import { PermanentMessageError } from '../messaging/types';
import { family } from './registry';

/** The adapters' default (messaging/retry.ts), repeated to keep this module free of them. */
const DEFAULT_MAX_ATTEMPTS = 5;

/** A bus that can tell the depth of the queues it consumes (both adapters can). */
export type DepthReader = () => Promise<QueueDepth[]>;

export function meteredBus(bus: MessageBus, depths?: DepthReader): MessageBus {
  const published = family('counter', 'agora_bus_published_total', {
    help: 'Events and jobs published, by name and outcome (ok: confirmed by the broker; error).',
    labelNames: ['name', 'outcome'],
  });
  const consumed = family('counter', 'agora_bus_consumed_total', {
    help: 'Deliveries handled, by queue and outcome (ok, retry: scheduled again, dead: dead-lettered).',
    labelNames: ['queue', 'outcome'],
  });
  if (depths) readers.add(depths);
  family('gauge', 'agora_bus_queue_depth', {
    help: 'Messages waiting in the queues this process consumes, by queue and state (ready, dead).',
    labelNames: ['queue', 'state'],
    async collect() {
      this.reset();
      for (const read of readers) {
        const rows = await read().catch(() => []);
        for (const r of rows) {
          this.set({ queue: r.queue, state: 'ready' }, r.ready);
          this.set({ queue: r.queue, state: 'dead' }, r.dead);
        }
      }
    },
  });
  const count = <T>(name: string, p: Promise<T>): Promise<T> =>
    p.then(
      (v) => (published.inc({ name, outcome: 'ok' }), v),
      (err: unknown) => {
        published.inc({ name, outcome: 'error' });
        throw err;
      },
    );
  const wrap =
    <T>(queue: string, handler: Handler<T>, opts?: ConsumeOptions): Handler<T> =>
    async (msg) => {
      try {
        await handler(msg);
        consumed.inc({ queue, outcome: 'ok' });
      } catch (err) {
        const last = msg.attempt >= (opts?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
        consumed.inc({ queue, outcome: err instanceof PermanentMessageError || last ? 'dead' : 'retry' });
        throw err;
      }
    };
  return {
    publish: (name, payload, opts) => count(name, bus.publish(name, payload, opts)),
    enqueue: (queue, payload, opts) => count(queue, bus.enqueue(queue, payload, opts)),
    subscribe: (queue, names, handler, opts) => bus.subscribe(queue, names, wrap(queue, handler, opts), opts),
    work: (queue, handler, opts) => bus.work(queue, wrap(queue, handler, opts), opts),
    drainDead: (queue, max) => bus.drainDead(queue, max),
    health: () => bus.health(),
    close: async () => {
      if (depths) readers.delete(depths);
      await bus.close();
    },
  };
}

/** Every open bus of the process (standalone and tests hold several). */
const readers = new Set<DepthReader>();
