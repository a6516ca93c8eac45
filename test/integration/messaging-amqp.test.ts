/**
 * What only the RabbitMQ adapter of the MessageBus does (the shared contract is in
 * messaging.contract.test.ts): the queues it declares, the message properties it sends, how it
 * fails against an unreachable broker, and how it parks a body that is not JSON. A vhost of this
 * file's own; every case uses its own queue and event names.
 */
import {
  DEAD_REASON_HEADER,
  PublishTimeoutError,
  createAmqpBus,
  type BusMessage,
} from '@agora/common/messaging';
import { connect } from 'amqplib';
import { AmqpFixture, handle, silentLogger, uid, waitFor } from './messaging/fixtures';

/** An AMQP bus whose broker never answers (nothing listens on port 1). */
const unreachableBus = (timeoutMs: number) =>
  createAmqpBus({ url: 'amqp://guest:guest@127.0.0.1:1', logger: silentLogger, service: 'test', timeoutMs });

describe('AMQP adapter specifics', () => {
  const fx = new AmqpFixture();
  beforeAll(() => fx.setup());
  afterAll(() => fx.teardown());
  afterEach(() => fx.closeAll());

  it('declares durable queues, a dead-letter queue and TTL delay queues that lead back to the queue', async () => {
    const bus = fx.bus();
    const u = uid();
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle(() => undefined),
      { retryDelaysMs: [50, 100], maxAttempts: 4 },
    );
    const queues = await fx.queues();
    expect(queues.get(`${u}.q`)?.durable).toBe(true);
    expect(queues.get(`${u}.q.dead`)?.durable).toBe(true);
    for (const ms of [50, 100]) {
      const delay = queues.get(`${u}.q.delay.${ms}`);
      expect(delay?.durable).toBe(true);
      expect(delay?.arguments).toMatchObject({
        'x-message-ttl': ms,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': `${u}.q`,
      });
    }
  });

  it('declares an exclusive queue as auto-deleted, without dead letters or delays, gone after close', async () => {
    const bus = fx.bus();
    const u = uid();
    await bus.subscribe(
      `${u}.live`,
      [`${u}.created`],
      handle(() => undefined),
      { exclusive: true },
    );
    const queues = await fx.queues();
    expect(queues.get(`${u}.live`)?.durable).toBe(false);
    expect([...queues.keys()].filter((q) => q.startsWith(`${u}.live.`))).toEqual([]);
    await fx.closeAll();
    expect((await fx.queues()).has(`${u}.live`)).toBe(false);
  });

  it('sends persistent JSON messages carrying id, name and attempt', async () => {
    const bus = fx.bus();
    const u = uid();
    await bus.enqueue(`${u}.jobs`, { n: 1 }, { id: `${u}-1` });
    const conn = await connect(fx.broker.url);
    try {
      const ch = await conn.createChannel();
      const m = await ch.get(`${u}.jobs`, { noAck: true });
      expect(m).not.toBe(false);
      if (!m) return;
      expect(m.properties).toMatchObject({
        deliveryMode: 2,
        messageId: `${u}-1`,
        type: `${u}.jobs`,
        contentType: 'application/json',
      });
      expect(m.properties.headers?.['x-attempt']).toBe(1);
      expect(JSON.parse(m.content.toString())).toEqual({ n: 1 });
    } finally {
      await conn.close();
    }
  });

  it('fails a publish after timeoutMs when the broker is unreachable, and still closes', async () => {
    const bus = unreachableBus(300);
    try {
      await expect(bus.publish('nobody.listens', {})).rejects.toBeInstanceOf(PublishTimeoutError);
      const health = await bus.health();
      expect(health.ok).toBe(false);
      expect(health.detail).toContain('reconnecting');
    } finally {
      await bus.close();
    }
  });

  it('an ifConnected publish to an unreachable broker fails at once, not after timeoutMs', async () => {
    const bus = unreachableBus(20_000);
    try {
      const started = Date.now();
      await expect(bus.publish('nobody.listens', {}, { ifConnected: true })).rejects.toBeInstanceOf(
        PublishTimeoutError,
      );
      await expect(bus.enqueue('nobody.works', {}, { ifConnected: true })).rejects.toBeInstanceOf(
        PublishTimeoutError,
      );
      // Far below the 20 s a publish waits for a connection otherwise (not a timing assert on speed:
      // the two paths differ by the whole timeout).
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await bus.close();
    }
  });

  it('parks a message whose body is not JSON without calling the handler', async () => {
    const bus = fx.bus();
    const u = uid();
    let calls = 0;
    await bus.work(
      `${u}.jobs`,
      handle(() => calls++),
      { retryDelaysMs: [50] },
    );
    const conn = await connect(fx.broker.url);
    try {
      const ch = await conn.createConfirmChannel();
      ch.sendToQueue(`${u}.jobs`, Buffer.from('{not json'), { messageId: `${u}-raw`, persistent: true });
      await ch.waitForConfirms();
    } finally {
      await conn.close();
    }
    const dead: BusMessage[] = [];
    await waitFor('dead letter', async () => {
      dead.push(...(await bus.drainDead(`${u}.jobs`)));
      return dead.length > 0;
    });
    expect(calls).toBe(0);
    expect(dead[0]).toMatchObject({ id: `${u}-raw`, payload: '{not json', attempt: 1 });
    expect(dead[0]!.headers[DEAD_REASON_HEADER]).toContain('not JSON');
  });
});
