/**
 * RabbitMQ names, declarations and the wire format of one message. Everything is durable and
 * declared idempotently by whoever needs it (publisher, consumer, enqueue), so no process has to
 * start first. Delay queues hold messages for a fixed TTL and dead-letter them to their target;
 * that is the only timer RabbitMQ offers without plugins (fedify's AMQP adapter does the same).
 */
import { randomUUID } from 'node:crypto';
import type { Channel, Message, Options } from 'amqplib';
import { ATTEMPT_HEADER, PUBLISHED_AT_HEADER, callerHeaders, type Envelope } from './codec';

export const DEFAULT_EXCHANGE = 'agora.events';

export const deadQueueName = (queue: string): string => `${queue}.dead`;
/** `<target>.delay.<ms>`: a queue (and for events a fanout exchange) per distinct delay. */
export const delayName = (target: string, ms: number): string => `${target}.delay.${ms}`;

export async function declareEventExchange(ch: Channel, exchange: string): Promise<void> {
  await ch.assertExchange(exchange, 'topic', { durable: true });
}

/** A consumer's queue, its dead-letter queue and one delay queue per retry tier. */
export async function declareConsumerQueues(
  ch: Channel,
  queue: string,
  retryTiersMs: number[],
  exclusive = false,
): Promise<void> {
  // Gone with the connection; a reconnect declares it afresh (events meanwhile are not kept).
  if (exclusive)
    return void (await ch.assertQueue(queue, { exclusive: true, autoDelete: true, durable: false }));
  await ch.assertQueue(queue, { durable: true });
  await ch.assertQueue(deadQueueName(queue), { durable: true });
  for (const ms of retryTiersMs) await declareQueueDelay(ch, queue, ms);
}

/**
 * Messages sit in `<queue>.delay.<ms>` for `ms`, then RabbitMQ dead-letters them through the
 * default exchange straight back to `queue` — only that queue, so a retry of an event never
 * reaches the other subscribers again.
 */
export async function declareQueueDelay(ch: Channel, queue: string, ms: number): Promise<void> {
  await ch.assertQueue(delayName(queue, ms), {
    durable: true,
    messageTtl: ms,
    deadLetterExchange: '',
    deadLetterRoutingKey: queue,
  });
}

/**
 * Delayed events go through a fanout exchange into a TTL queue that dead-letters to the topic
 * exchange. No dead-letter routing key is set, so the message keeps its own (the event name) and
 * is routed to the queues bound when the delay ends, as the in-process adapter does.
 */
export async function declareEventDelay(ch: Channel, exchange: string, ms: number): Promise<void> {
  const name = delayName(exchange, ms);
  await ch.assertExchange(name, 'fanout', { durable: true });
  await ch.assertQueue(name, { durable: true, messageTtl: ms, deadLetterExchange: exchange });
  await ch.bindQueue(name, name, '');
}

/** AMQP properties carrying an envelope; the body travels separately as the content. */
export function publishProperties(
  env: Envelope,
  appId: string,
  extraHeaders: Record<string, string> = {},
): Options.Publish {
  return {
    messageId: env.id,
    type: env.name,
    appId,
    contentType: 'application/json',
    persistent: true,
    timestamp: Math.floor(Date.parse(env.publishedAt) / 1000),
    headers: {
      ...env.headers,
      ...extraHeaders,
      [ATTEMPT_HEADER]: env.attempt,
      [PUBLISHED_AT_HEADER]: env.publishedAt,
    },
  };
}

export type Decoded = { env: Envelope; payload: unknown } | { env: Envelope; parseError: string };

/** Wire message to envelope + parsed payload; a body that is not JSON is reported, not thrown. */
export function decodeMessage(m: Message): Decoded {
  const raw = (m.properties.headers ?? {}) as Record<string, unknown>;
  const attempt = Number(raw[ATTEMPT_HEADER]);
  const published = raw[PUBLISHED_AT_HEADER];
  const env: Envelope = {
    // A message from a foreign publisher may lack an id; it then cannot be deduplicated.
    id:
      typeof m.properties.messageId === 'string' && m.properties.messageId
        ? m.properties.messageId
        : randomUUID(),
    name:
      typeof m.properties.type === 'string' && m.properties.type ? m.properties.type : m.fields.routingKey,
    body: m.content.toString('utf8'),
    headers: callerHeaders(raw),
    attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
    publishedAt:
      typeof published === 'string'
        ? published
        : new Date((Number(m.properties.timestamp) || 0) * 1000).toISOString(),
  };
  try {
    return { env, payload: JSON.parse(env.body) as unknown };
  } catch (err) {
    return { env, parseError: `payload is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}
