/**
 * The message bus contract shared by the RabbitMQ adapter and the in-process adapter
 * (style.md §7). Both run the same contract suite (test/integration/messaging.contract.test.ts),
 * so code written against `MessageBus` behaves the same in split and standalone mode.
 */

export interface BusMessage<T = unknown> {
  /** Stable across retries and redeliveries: consumers deduplicate on it. */
  id: string;
  /** Event name (`post.created`) or, for jobs, the work queue name. */
  name: string;
  payload: T;
  /** Caller headers plus W3C trace context; transport headers are not included. */
  headers: Record<string, string>;
  /** 1 on first delivery; +1 for each retry after a handler failure (not for crash redeliveries). */
  attempt: number;
  /** ISO time of the original publish. */
  publishedAt: string;
}

export interface PublishOptions {
  /** Defaults to a random UUID. Pass a deterministic id (e.g. the outbox entry id) for dedup. */
  id?: string;
  headers?: Record<string, string>;
  /** Deliver no earlier than this many ms from now. Each distinct value is one delay queue. */
  delayMs?: number;
  /**
   * Publish only if the broker connection is up now: otherwise reject at once (PublishTimeoutError)
   * instead of waiting for a reconnection; a connection lost before the confirm fails it within
   * 5 s (the outcome is then unknown: the message may still arrive, and again when resent). For a publisher whose message is recorded elsewhere and
   * sent again later (an HTTP write's events, kept in the outbox table for the relay), so that a
   * broker outage never holds a request.
   */
  ifConnected?: boolean;
}

export interface ConsumeOptions {
  /** Handlers of this consumer running at once (AMQP prefetch). Default 10. */
  prefetch?: number;
  /** Handler runs before a message is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** Delay after failed attempt n is `retryDelaysMs[n-1]` (last value repeats), jittered. */
  retryDelaysMs?: number[];
  /**
   * A queue of this process alone, for hints that matter only while it runs (the live stream,
   * ADR 0020): RabbitMQ declares it exclusive and auto-deleted, so it goes with the connection and
   * a replica that died leaves nothing collecting events. A handler failure drops the message: no
   * retry and no dead letter. Give each process its own queue name.
   */
  exclusive?: boolean;
}

export type Handler<T = unknown> = (msg: BusMessage<T>) => Promise<void>;

export interface MessageBus {
  /** Topic event to every subscribed queue (routing key = name, e.g. 'post.created'); resolves after broker confirm. */
  publish(name: string, payload: unknown, opts?: PublishOptions): Promise<void>;
  /** A job to one work queue (e.g. 'federation.deliver'); resolves after confirm. */
  enqueue(queue: string, payload: unknown, opts?: PublishOptions): Promise<void>;
  /**
   * Durable queue `queue` bound to event names (patterns like 'post.*' allowed). Handler success
   * = ack; throw = retry with delay up to maxAttempts, then dead-letter queue `<queue>.dead`.
   */
  subscribe<T>(queue: string, names: string[], handler: Handler<T>, opts?: ConsumeOptions): Promise<void>;
  /** Consume a work queue. */
  work<T>(queue: string, handler: Handler<T>, opts?: ConsumeOptions): Promise<void>;
  /** Read (and remove) up to `max` (default 100) dead-lettered messages of a queue. */
  drainDead(queue: string, max?: number): Promise<BusMessage[]>;
  /** Healthy = connected. */
  health(): Promise<{ ok: boolean; detail?: string }>;
  /** Stop consuming, wait for in-flight handlers (bounded by drainTimeoutMs), then close. */
  close(): Promise<void>;
}

/** Messages waiting in a consumed queue (metrics read it on scrape). */
export interface QueueDepth {
  queue: string;
  ready: number;
  dead: number;
}

/** Both adapters can tell the depth of the queues they consume. */
export interface DepthAware {
  depths(): Promise<QueueDepth[]>;
}

/** Throw from a handler when retrying cannot help (invalid payload): dead-letters at once. */
export class PermanentMessageError extends Error {
  override readonly name = 'PermanentMessageError';
}

/** Publish or consume after close() was called. */
export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
  constructor(message = 'Message bus is closed') {
    super(message);
  }
}

/** The broker did not confirm (or was unreachable) within the publish timeout. */
export class PublishTimeoutError extends Error {
  override readonly name = 'PublishTimeoutError';
}

/** Header set on dead-lettered messages: why the message was parked. */
export const DEAD_REASON_HEADER = 'x-dead-reason';
