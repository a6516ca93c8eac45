/**
 * One consumer on its own channel (so prefetch and channel errors are per consumer). A message
 * is acked only after its handler resolved, or after its retry/dead-letter copy was confirmed by
 * the broker, so there is no moment at which the broker holds no copy of it.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger';
import type { Publisher } from './amqp-publisher';
import { retryDelay, retryTiers, type ConsumePolicy } from './retry';
import { describeError, runInMessageContext, toBusMessage, type Envelope } from './codec';
import {
  deadQueueName,
  declareConsumerQueues,
  declareEventExchange,
  decodeMessage,
  delayName,
  publishProperties,
} from './amqp-topology';
import { DEAD_REASON_HEADER, PermanentMessageError, type Handler } from './types';

export interface ConsumerSpec {
  queue: string;
  /** Event name patterns; empty for a work queue. */
  bindings: string[];
  handler: Handler<unknown>;
  policy: ConsumePolicy;
  /** The connection this spec was last started on: setup and subscribe() never start it twice. */
  startedOn?: ChannelModel;
  starting?: Promise<void>;
  active?: ActiveConsumer;
}

export interface ActiveConsumer {
  ch: Channel;
  tag: string;
  /** False once the channel closed: acks are then impossible and the broker will redeliver. */
  open: boolean;
  cancelled: boolean;
}

export interface ConsumerDeps {
  exchange: string;
  service: string;
  logger: Logger;
  publisher: Publisher;
  publishTimeoutMs: number;
  /** Registers a running handler so close() can wait for it. */
  track(task: Promise<void>): void;
  /** The channel died while the connection may still be up (or the broker cancelled us). */
  onLost(model: ChannelModel, reason: string): void;
}

const SYSTEM = 'rabbitmq';

export async function startConsumer(
  spec: ConsumerSpec,
  model: ChannelModel,
  deps: ConsumerDeps,
): Promise<ActiveConsumer> {
  const ch = await model.createChannel();
  ch.on('error', (err: Error) => deps.logger.warn({ err, queue: spec.queue }, 'consumer channel error'));
  try {
    await declareConsumerQueues(ch, spec.queue, retryTiers(spec.policy), spec.policy.exclusive);
    if (spec.bindings.length) await declareEventExchange(ch, deps.exchange);
    for (const pattern of spec.bindings) await ch.bindQueue(spec.queue, deps.exchange, pattern);
    await ch.prefetch(spec.policy.prefetch);
  } catch (err) {
    await ch.close().catch(() => undefined);
    throw err;
  }
  const active: ActiveConsumer = { ch, tag: '', open: true, cancelled: false };
  ch.on('close', () => {
    active.open = false;
    if (!active.cancelled) deps.onLost(model, `consumer channel of ${spec.queue} closed`);
  });
  const { consumerTag } = await ch.consume(
    spec.queue,
    (m) => {
      // null: the broker cancelled the consumer (queue deleted); a reconnect redeclares it.
      if (m === null) deps.onLost(model, `consumer of ${spec.queue} cancelled by the broker`);
      else deps.track(handleDelivery(spec, active, m, deps));
    },
    { noAck: false },
  );
  active.tag = consumerTag;
  return active;
}

/** Stops deliveries; messages already delivered keep running and are acked on the open channel. */
export async function cancelConsumer(active: ActiveConsumer): Promise<void> {
  active.cancelled = true;
  if (active.open) await active.ch.cancel(active.tag).catch(() => undefined);
}

/**
 * Closes the channel after the handlers are done. Needed before closing the connection: amqplib
 * multiplexes channels, so an ack still buffered on this channel could reach the broker after a
 * Connection.Close written on channel 0 and be discarded. Channel.Close travels behind the acks.
 */
export async function closeConsumer(active: ActiveConsumer): Promise<void> {
  active.cancelled = true;
  if (active.open) await active.ch.close().catch(() => undefined);
}

async function handleDelivery(
  spec: ConsumerSpec,
  active: ActiveConsumer,
  m: ConsumeMessage,
  deps: ConsumerDeps,
): Promise<void> {
  const decoded = decodeMessage(m);
  if ('parseError' in decoded) {
    // Retrying cannot make bytes parse: park it at once.
    await settleFailure(spec, active, m, decoded.env, new PermanentMessageError(decoded.parseError), deps);
    return;
  }
  const msg = toBusMessage(decoded.env, decoded.payload);
  try {
    await runInMessageContext(SYSTEM, spec.queue, msg, () => spec.handler(msg));
  } catch (err) {
    await settleFailure(spec, active, m, decoded.env, err, deps);
    return;
  }
  ack(active, m);
}

async function settleFailure(
  spec: ConsumerSpec,
  active: ActiveConsumer,
  m: ConsumeMessage,
  env: Envelope,
  err: unknown,
  deps: ConsumerDeps,
): Promise<void> {
  const log = { queue: spec.queue, messageId: env.id, name: env.name, attempt: env.attempt, err };
  // The channel is gone, so the broker already requeued the message; a retry copy would duplicate it.
  if (!active.open) return;
  if (spec.policy.exclusive) {
    deps.logger.warn(log, 'message handler failed; dropped (exclusive queue)');
    return ack(active, m);
  }
  const deadline = Date.now() + deps.publishTimeoutMs;
  try {
    if (err instanceof PermanentMessageError || env.attempt >= spec.policy.maxAttempts) {
      const headers = { [DEAD_REASON_HEADER]: describeError(err) };
      await deps.publisher.send(
        '',
        deadQueueName(spec.queue),
        m.content,
        publishProperties(env, deps.service, headers),
        deadline,
      );
      deps.logger.error(log, 'message handler failed; dead-lettered');
    } else {
      const { tierMs, delayMs } = retryDelay(spec.policy, env.attempt);
      const props = {
        ...publishProperties({ ...env, attempt: env.attempt + 1 }, deps.service),
        expiration: String(delayMs),
      };
      await deps.publisher.send('', delayName(spec.queue, tierMs), m.content, props, deadline);
      deps.logger.warn({ ...log, delayMs }, 'message handler failed; retrying');
    }
    ack(active, m);
  } catch (publishErr) {
    // No confirmed copy elsewhere: give the message back rather than lose it.
    deps.logger.error({ ...log, publishErr }, 'could not schedule retry; requeueing');
    if (active.open) safely(() => active.ch.nack(m, false, true));
  }
}

function ack(active: ActiveConsumer, m: ConsumeMessage): void {
  if (active.open) safely(() => active.ch.ack(m));
}

/** ack/nack throw once the channel is closing; the broker then redelivers, which is the intent. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // see above
  }
}
