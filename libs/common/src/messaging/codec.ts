/**
 * What travels with a message, independent of the transport: JSON body, caller headers, trace
 * context, attempt counter and publish time. Both adapters serialise payloads to JSON so a
 * handler never sees a value the broker could not have carried (Dates arrive as strings in both).
 */
import { randomUUID } from 'node:crypto';
import { context, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { BusMessage, PublishOptions } from './types';

export const ATTEMPT_HEADER = 'x-attempt';
export const PUBLISHED_AT_HEADER = 'x-published-at';

/** Transport bookkeeping that is not part of BusMessage.headers (RabbitMQ adds the x-death ones). */
function isTransportHeader(key: string): boolean {
  return (
    key === ATTEMPT_HEADER ||
    key === PUBLISHED_AT_HEADER ||
    key === 'x-death' ||
    key.startsWith('x-first-death-') ||
    key.startsWith('x-last-death-')
  );
}

const tracer = trace.getTracer('@agora/common/messaging');

/** A message as both adapters store it: the body stays a JSON string until delivery. */
export interface Envelope {
  id: string;
  name: string;
  body: string;
  headers: Record<string, string>;
  attempt: number;
  publishedAt: string;
}

export function encodeBody(payload: unknown): string {
  // JSON.stringify returns undefined for functions and symbols; refuse rather than send nothing.
  const body = JSON.stringify(payload ?? null) as string | undefined;
  if (body === undefined) throw new TypeError('Message payload is not JSON-serialisable');
  return body;
}

/**
 * Builds a first-attempt envelope. Trace context of the active span is injected, but headers the
 * caller passes win: an outbox relay hands over the context recorded at write time, which is the
 * trace the event belongs to, rather than the relay's own.
 */
export function newEnvelope(name: string, payload: unknown, opts: PublishOptions = {}): Envelope {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const headers: Record<string, string> = { ...carrier };
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (!isTransportHeader(k)) headers[k] = v;
  return {
    id: opts.id ?? randomUUID(),
    name,
    body: encodeBody(payload),
    headers,
    attempt: 1,
    publishedAt: new Date().toISOString(),
  };
}

/** Header table from the wire (values may be Buffers or numbers) to caller-visible strings. */
export function callerHeaders(raw: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (isTransportHeader(k) || v === undefined || v === null) continue;
    if (typeof v === 'string') out[k] = v;
    else if (Buffer.isBuffer(v)) out[k] = v.toString('utf8');
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') out[k] = v.toString();
    else out[k] = JSON.stringify(v) ?? '';
  }
  return out;
}

export function toBusMessage<T>(env: Envelope, payload: T): BusMessage<T> {
  return {
    id: env.id,
    name: env.name,
    payload,
    headers: { ...env.headers },
    attempt: env.attempt,
    publishedAt: env.publishedAt,
  };
}

export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Runs `fn` inside a producer span so the injected trace context names this publish. */
export function withPublishSpan<T>(system: string, destination: string, fn: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    `publish ${destination}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.system': system, 'messaging.destination.name': destination },
    },
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: describeError(err) });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Runs a handler in the trace context the message carries, under a consumer span. */
export function runInMessageContext(
  system: string,
  queue: string,
  msg: BusMessage,
  fn: () => Promise<void>,
): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, msg.headers);
  return context.with(parent, () =>
    tracer.startActiveSpan(
      `process ${queue}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': system,
          'messaging.destination.name': queue,
          'messaging.message.id': msg.id,
          'messaging.message.delivery_attempt': msg.attempt,
        },
      },
      async (span) => {
        try {
          await fn();
        } catch (err) {
          if (err instanceof Error) span.recordException(err);
          span.setStatus({ code: SpanStatusCode.ERROR, message: describeError(err) });
          throw err;
        } finally {
          span.end();
        }
      },
    ),
  );
}
