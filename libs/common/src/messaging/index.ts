/**
 * Messaging written once (style.md §7): RabbitMQ when a URL is configured, the in-process bus
 * otherwise (standalone mode shares one in-process bus between all services). docs/messaging.md
 * describes the topology and guarantees.
 */
import type { Logger } from '../logger';
import { createAmqpBus } from './amqp';
import { createMemoryBus } from './memory';
import type { MemoryBroker } from './memory-broker';
import type { MessageBus } from './types';
import { meteredBus } from '../metrics/bus';

export * from './types';
export { createAmqpBus, type AmqpBusOptions } from './amqp';
export { createMemoryBus, type MemoryBusOptions } from './memory';
export { createMemoryBroker, type MemoryBroker } from './memory-broker';
export { DEFAULT_EXCHANGE } from './amqp-topology';
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_PREFETCH, DEFAULT_RETRY_DELAYS_MS } from './retry';

export interface BusOptions {
  /** amqp(s):// URL; unset selects the in-process bus. */
  url?: string;
  logger: Logger;
  service: string;
  exchange?: string;
  /** publish/subscribe wait for a broker connection at most this long (AMQP). Default 30 s. */
  timeoutMs?: number;
  /** close() waits this long for running handlers. Default 30 s. */
  drainTimeoutMs?: number;
  /** In-process only: share queues with other buses on this broker. */
  memoryBroker?: MemoryBroker;
}

export function createBus(opts: BusOptions): MessageBus {
  const { url, memoryBroker, ...common } = opts;
  const bus = url
    ? createAmqpBus({ ...common, url })
    : createMemoryBus({ logger: opts.logger, broker: memoryBroker, drainTimeoutMs: opts.drainTimeoutMs });
  return meteredBus(bus, () => bus.depths());
}
export { publishEvents, publishRecorded, type EventPublisher, type RecordedEvent } from './outbox';
export { relayOnce, startOutboxRelay, type RelayOptions } from './outbox-relay';
export * from './catalogue';
export {
  VERSION_HEADER,
  createEventBus,
  decodeEvent,
  decodeJob,
  domainEvent,
  type DomainEvent,
  type EventBus,
  type EventMessage,
  type JobMessage,
} from './events';
export * from './backup-jobs';
