/**
 * The typed bus (issue 8): `publish`, `enqueue`, `subscribe` and `work` typed from the catalogue,
 * over the `MessageBus` port. A name the catalogue does not hold, or a payload that does not
 * match its schema, is a compile error; at run time the producer side parses too (a wrong payload
 * throws before anything is sent) and every message carries its entry's version in
 * `x-event-version`. The consumer side parses each message with the same schema and refuses what
 * does not match with a `PermanentMessageError`, so the bus dead-letters it at once (with the
 * reason in `x-dead-reason`) instead of retrying something that can never succeed.
 *
 * Services use this, never the raw `MessageBus` (an ESLint rule says so); the raw string API
 * stays for the adapters, the outbox relay and tests.
 */
import type { z } from 'zod';
import type { Logger } from '../logger';
import {
  EVENTS,
  JOBS,
  entryOf,
  isEventName,
  isJobName,
  type CatalogueEntry,
  type EventName,
  type EventPayload,
  type JobName,
  type JobPayload,
} from './catalogue';
import {
  PermanentMessageError,
  type BusMessage,
  type ConsumeOptions,
  type MessageBus,
  type PublishOptions,
} from './types';

/** The catalogue version a message was produced against. */
export const VERSION_HEADER = 'x-event-version';

type Received<N extends string, P> = Omit<BusMessage, 'name' | 'payload'> & { name: N; payload: P };

/** A parsed event: a union over the names, so `switch (msg.name)` narrows the payload. */
export type EventMessage<N extends EventName = EventName> = {
  [K in N]: Received<K, EventPayload<K>>;
}[N];
export type JobMessage<Q extends JobName> = Received<Q, JobPayload<Q>>;

/** An event as the activity outbox records it: a catalogue name and its payload. */
export type DomainEvent<N extends EventName = EventName> = {
  [K in N]: { name: K; payload: EventPayload<K> };
}[N];

export interface EventBus {
  /** An event to every queue subscribed to its name; resolves after the broker confirmed it. */
  publish<N extends EventName>(name: N, payload: EventPayload<N>, opts?: PublishOptions): Promise<void>;
  /** A job to its work queue; resolves after confirm. */
  enqueue<Q extends JobName>(queue: Q, payload: JobPayload<Q>, opts?: PublishOptions): Promise<void>;
  /** A durable queue bound to `names`; the handler sees only messages that parse. */
  subscribe<N extends EventName>(
    queue: string,
    names: readonly N[],
    handler: (msg: EventMessage<N>) => Promise<void>,
    opts?: ConsumeOptions,
  ): Promise<void>;
  /** Consumes a work queue; the handler sees only jobs that parse. */
  work<Q extends JobName>(
    queue: Q,
    handler: (msg: JobMessage<Q>) => Promise<void>,
    opts?: ConsumeOptions,
  ): Promise<void>;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? `.${issue.path.map(String).join('.')}` : '';
  return `payload${path}: ${issue?.message ?? 'invalid'}`;
}

/** `x-event-version` for a catalogue entry, merged into the caller's headers. */
export function versionHeaders(name: string, headers?: Record<string, string>): Record<string, string> {
  const e = entryOf(name);
  return { ...(headers ?? {}), ...(e ? { [VERSION_HEADER]: String(e.version) } : {}) };
}

function parseOrThrow<T>(name: string, e: CatalogueEntry, msg: BusMessage): T {
  const version = msg.headers[VERSION_HEADER];
  if (version !== undefined && version !== String(e.version))
    throw new PermanentMessageError(`${name}: version ${version}, this consumer reads version ${e.version}`);
  const parsed = e.schema.safeParse(msg.payload);
  if (!parsed.success)
    throw new PermanentMessageError(`${name} v${e.version}: ${describeIssue(parsed.error)}`);
  return parsed.data as T;
}

/**
 * Checks a received message against the catalogue: its name among `names`, its version (when it
 * carries one) the catalogue's, its payload the schema's. Throws `PermanentMessageError` saying
 * why not. Consumers that are also called directly (tests, replays) call this themselves.
 */
export function decodeEvent<N extends EventName>(msg: BusMessage, names: readonly N[]): EventMessage<N> {
  const name = msg.name;
  if (!isEventName(name) || !(names as readonly string[]).includes(name))
    throw new PermanentMessageError(`${name}: not an event this consumer reads`);
  const payload = parseOrThrow<EventPayload<N>>(name, EVENTS[name], msg);
  return { ...msg, name, payload } as unknown as EventMessage<N>;
}

/** `decodeEvent` for a job of work queue `queue`. */
export function decodeJob<Q extends JobName>(msg: BusMessage, queue: Q): JobMessage<Q> {
  const payload = parseOrThrow<JobPayload<Q>>(queue, JOBS[queue], msg);
  return { ...msg, name: queue, payload };
}

/**
 * A producer's own check: the payload must match (a mismatch is a programming error, thrown
 * before anything is recorded or sent). Returns the parsed payload.
 */
function checked(name: string, e: CatalogueEntry | undefined, payload: unknown): unknown {
  // Reachable only past the type checker (a cast, plain JavaScript).
  if (!e) throw new TypeError(`${name}: not in the event catalogue`);
  const parsed = e.schema.safeParse(payload);
  if (!parsed.success) throw new TypeError(`${name}: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

/** An event for the activity outbox, checked against the catalogue. */
export function domainEvent<N extends EventName>(name: N, payload: EventPayload<N>): DomainEvent<N> {
  return {
    name,
    payload: checked(name, isEventName(name) ? EVENTS[name] : undefined, payload),
  } as DomainEvent<N>;
}

export function createEventBus(bus: MessageBus, logger: Logger): EventBus {
  /** Refusals are logged here, with the reason, before the bus dead-letters the message. */
  const guarded = async <M>(
    queue: string,
    msg: BusMessage,
    decode: () => M,
    run: (m: M) => Promise<void>,
  ) => {
    let decoded: M;
    try {
      decoded = decode();
    } catch (err) {
      logger.warn(
        { queue, event: msg.name, id: msg.id, reason: (err as Error).message },
        'message does not match the event catalogue; dead-lettered',
      );
      throw err;
    }
    await run(decoded);
  };
  return {
    async publish(name, payload, opts = {}) {
      const body = checked(name, isEventName(name) ? EVENTS[name] : undefined, payload);
      await bus.publish(name, body, { ...opts, headers: versionHeaders(name, opts.headers) });
    },
    async enqueue(queue, payload, opts = {}) {
      const body = checked(queue, isJobName(queue) ? JOBS[queue] : undefined, payload);
      await bus.enqueue(queue, body, { ...opts, headers: versionHeaders(queue, opts.headers) });
    },
    subscribe(queue, names, handler, opts) {
      return bus.subscribe(
        queue,
        [...names],
        (msg) =>
          guarded(
            queue,
            msg,
            () => decodeEvent(msg, names),
            (m) => handler(m),
          ),
        opts,
      );
    },
    work(queue, handler, opts) {
      return bus.work(
        queue,
        (msg) =>
          guarded(
            queue,
            msg,
            () => decodeJob(msg, queue),
            (m) => handler(m),
          ),
        opts,
      );
    },
  };
}
