/**
 * One contract for both MessageBus adapters (style.md §7, §9): the same cases run against the
 * in-process bus and against RabbitMQ in a vhost of this file's own. Every case uses its own
 * queue and event names, since the vhost (and the memory broker) is shared by the file.
 */
import { ROOT_CONTEXT, context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BusClosedError,
  DEAD_REASON_HEADER,
  PermanentMessageError,
  PublishTimeoutError,
  createAmqpBus,
  type BusMessage,
} from '@agora/common/messaging';
import { connect } from 'amqplib';
import {
  AmqpFixture,
  capturingLogger,
  deferred,
  fixtures,
  handle,
  silentLogger,
  sleep,
  uid,
  waitFor,
} from './messaging/fixtures';

const fast = { retryDelaysMs: [50, 100] };

/** An AMQP bus whose broker never answers (nothing listens on port 1). */
const unreachableBus = (timeoutMs: number) =>
  createAmqpBus({ url: 'amqp://guest:guest@127.0.0.1:1', logger: silentLogger, service: 'test', timeoutMs });

describe.each(fixtures())('MessageBus contract: $name', (fx) => {
  beforeAll(() => fx.setup());
  afterAll(() => fx.teardown());
  afterEach(() => fx.closeAll());

  it('delivers a published event with its payload, name, id and headers, never synchronously', async () => {
    const bus = fx.bus();
    const u = uid();
    const got: BusMessage[] = [];
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle((m) => got.push(m)),
    );

    const published = bus.publish(
      `${u}.created`,
      { text: 'hi', at: new Date(0) },
      { id: `${u}-1`, headers: { 'x-tenant': 'a' } },
    );
    expect(got).toHaveLength(0);
    await published;
    await waitFor('delivery', () => got.length === 1);

    const m = got[0]!;
    expect(m).toMatchObject({ id: `${u}-1`, name: `${u}.created`, attempt: 1, headers: { 'x-tenant': 'a' } });
    // Payloads travel as JSON in both adapters: a Date arrives as its ISO string.
    expect(m.payload).toEqual({ text: 'hi', at: '1970-01-01T00:00:00.000Z' });
    expect(Number.isNaN(Date.parse(m.publishedAt))).toBe(false);
    expect(Object.keys(m.headers)).not.toContain('x-attempt');
  });

  it('generates a message id when none is given', async () => {
    const bus = fx.bus();
    const u = uid();
    const ids: string[] = [];
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle((m) => ids.push(m.id)),
    );
    await bus.publish(`${u}.created`, {});
    await bus.publish(`${u}.created`, {});
    await waitFor('two deliveries', () => ids.length === 2);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('keeps jobs enqueued before a worker exists, but drops events no queue is bound to yet', async () => {
    const bus = fx.bus();
    const u = uid();
    await bus.enqueue(`${u}.jobs`, { n: 1 }, { id: `${u}-job` });
    await bus.publish(`${u}.created`, { n: 1 });

    const jobs: BusMessage[] = [];
    const events: BusMessage[] = [];
    await bus.work(
      `${u}.jobs`,
      handle((m) => jobs.push(m)),
    );
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle((m) => events.push(m)),
    );
    await bus.publish(`${u}.created`, { n: 2 });

    await waitFor('job and second event', () => jobs.length === 1 && events.length === 1);
    expect(jobs[0]).toMatchObject({ id: `${u}-job`, name: `${u}.jobs`, payload: { n: 1 } });
    // No sleep to see whether the first event turns up late: a queue delivers in order, so had it
    // been kept it would have come before the second one, and before this marker.
    await bus.publish(`${u}.created`, { n: 3 });
    await waitFor('the marker', () => events.length === 2);
    expect(events.map((e) => e.payload)).toEqual(expect.arrayContaining([{ n: 2 }, { n: 3 }]));
    expect(events).toHaveLength(2);
  });

  it('copies an event to every bound queue, and splits a queue between its consumers', async () => {
    const u = uid();
    const busA = fx.bus();
    const busB = fx.bus();
    const a: string[] = [];
    const b: string[] = [];
    await busA.subscribe(
      `${u}.a`,
      [`${u}.created`],
      handle((m) => a.push(m.id)),
    );
    await busA.subscribe(
      `${u}.b`,
      [`${u}.created`],
      handle((m) => b.push(m.id)),
    );
    await busA.publish(`${u}.created`, {}, { id: 'fan' });
    await waitFor('a copy in each queue', () => a.length === 1 && b.length === 1);

    // Two consumers (two buses, i.e. two processes) on one queue: each message handled once.
    const byConsumer: [string[], string[]] = [[], []];
    const slow = (mine: string[]) => async (m: BusMessage) => {
      await sleep(10);
      mine.push(m.id);
    };
    await busA.work(`${u}.shared`, slow(byConsumer[0]), { prefetch: 1 });
    await busB.work(`${u}.shared`, slow(byConsumer[1]), { prefetch: 1 });
    const ids = Array.from({ length: 20 }, (_, i) => `${u}-${i}`);
    await Promise.all(ids.map((id) => busA.enqueue(`${u}.shared`, {}, { id })));
    await waitFor('all 20 handled', () => byConsumer[0].length + byConsumer[1].length >= 20);
    // A marker enqueued last: the queue delivers in order, so had the queue been copied to both
    // consumers instead of split, whoever handles the marker would have handled all 20 first.
    await busA.enqueue(`${u}.shared`, {}, { id: `${u}-marker` });
    await waitFor('the marker', () => [...byConsumer[0], ...byConsumer[1]].includes(`${u}-marker`));

    const all = [...byConsumer[0], ...byConsumer[1]].filter((id) => id !== `${u}-marker`);
    expect(all.sort()).toEqual([...ids].sort());
    expect(byConsumer[0].length).toBeGreaterThan(0);
    expect(byConsumer[1].length).toBeGreaterThan(0);
  });

  it('exclusive queues: each process gets every event, a failure is dropped, nothing is kept after close', async () => {
    const u = uid();
    const [busA, busB] = [fx.bus(), fx.bus()];
    const a: string[] = [];
    const b: number[] = [];
    await busA.subscribe(
      `${u}.live.a`,
      [`${u}.created`],
      handle((m) => a.push(m.id)),
      { exclusive: true },
    );
    await busB.subscribe(
      `${u}.live.b`,
      [`${u}.created`],
      handle((m) => {
        b.push(m.attempt);
        if (m.id === 'broken') throw new Error('hint failed');
      }),
      { ...fast, exclusive: true },
    );
    await busA.publish(`${u}.created`, {}, { id: 'broken' });
    await busA.publish(`${u}.created`, {}, { id: 'after' });
    await waitFor('both processes saw both', () => a.length === 2 && b.length === 2);
    expect(a).toEqual(['broken', 'after']);
    // Dropped at once: the second delivery is the next event, not a retry, and nothing is parked.
    expect(b).toEqual([1, 1]);
    expect(await busB.drainDead(`${u}.live.b`)).toEqual([]);
  });

  it('binds patterns: post.* matches one word, not zero or two', async () => {
    const bus = fx.bus();
    const u = uid();
    const names: string[] = [];
    await bus.subscribe(
      `${u}.q`,
      [`${u}.*`],
      handle((m) => names.push(m.name)),
    );
    for (const n of [`${u}.created`, `${u}`, `${u}.created.remote`, `${u}x.created`, `${u}.deleted`])
      await bus.publish(n, {});
    // A marker published last: the queue delivers in order, so anything wrongly routed to it
    // arrives before the marker (no sleep-then-look).
    await bus.publish(`${u}.zz`, {});
    await waitFor('the marker', () => names.includes(`${u}.zz`));
    expect([...names].sort()).toEqual([`${u}.created`, `${u}.deleted`, `${u}.zz`]);
  });

  it('retries a failing handler with an increasing attempt counter until it succeeds', async () => {
    const bus = fx.bus();
    const u = uid();
    const attempts = new Map<string, number[]>();
    const handled: string[] = [];
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle((m) => {
        attempts.set(m.id, [...(attempts.get(m.id) ?? []), m.attempt]);
        if (m.attempt < 3) throw new Error(`transient failure ${m.attempt}`);
        handled.push(m.id);
      }),
      { ...fast, maxAttempts: 5 },
    );
    await bus.publish(`${u}.created`, { n: 1 }, { id: 'first' });
    await waitFor('handled on the third attempt', () => handled.includes('first'));
    // A marker sent after that success takes the same path (two failures, then the 100 ms tier)
    // and so reaches the queue for its third attempt after any retry of the first one that the
    // success might have scheduled: once the marker is handled, such a retry would have shown.
    await bus.publish(`${u}.created`, { n: 2 }, { id: 'marker' });
    await waitFor('the marker handled', () => handled.includes('marker'));
    expect(attempts.get('first')).toEqual([1, 2, 3]);
    expect(handled).toEqual(['first', 'marker']);
    expect(await bus.drainDead(`${u}.q`)).toEqual([]);
  });

  it('dead-letters a message after maxAttempts, with its payload and the reason', async () => {
    const bus = fx.bus();
    const u = uid();
    const attempts: number[] = [];
    const markerAttempts: number[] = [];
    await bus.work(
      `${u}.jobs`,
      handle((m) => {
        (m.id === `${u}-marker` ? markerAttempts : attempts).push(m.attempt);
        throw new Error('always broken');
      }),
      { ...fast, maxAttempts: 3 },
    );
    await bus.enqueue(`${u}.jobs`, { keep: 'me' }, { id: `${u}-poison`, headers: { 'x-tenant': 'b' } });

    const dead: BusMessage[] = [];
    await waitFor('dead letter', async () => {
      dead.push(...(await bus.drainDead(`${u}.jobs`)));
      return dead.length > 0;
    });
    expect(attempts).toEqual([1, 2, 3]);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ id: `${u}-poison`, payload: { keep: 'me' }, attempt: 3 });
    expect(dead[0]!.headers['x-tenant']).toBe('b');
    expect(dead[0]!.headers[DEAD_REASON_HEADER]).toContain('always broken');
    // Dead-lettered is final: a marker sent now goes the same way through the same delay tiers,
    // so any further attempt of the first message would come back before the marker is parked.
    await bus.enqueue(`${u}.jobs`, {}, { id: `${u}-marker` });
    const later: BusMessage[] = [];
    await waitFor('the marker dead-lettered', async () => {
      later.push(...(await bus.drainDead(`${u}.jobs`)));
      return later.some((m) => m.id === `${u}-marker`);
    });
    expect(markerAttempts).toEqual([1, 2, 3]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(later.map((m) => m.id)).toEqual([`${u}-marker`]);
  });

  it('dead-letters at once when the handler says retrying cannot help', async () => {
    const bus = fx.bus();
    const u = uid();
    let calls = 0;
    await bus.work(
      `${u}.jobs`,
      handle(() => {
        calls++;
        throw new PermanentMessageError('invalid payload');
      }),
      fast,
    );
    await bus.enqueue(`${u}.jobs`, { bad: true });
    const dead: BusMessage[] = [];
    await waitFor('dead letter', async () => {
      dead.push(...(await bus.drainDead(`${u}.jobs`)));
      return dead.length > 0;
    });
    expect(calls).toBe(1);
    expect(dead[0]).toMatchObject({ payload: { bad: true }, attempt: 1 });
  });

  it('gives an unacked message to another consumer when its consumer goes away mid-handler', async () => {
    const u = uid();
    const producer = fx.bus();
    // The bus stops waiting for its handler after 200 ms and closes: like a process killed
    // during its shutdown grace period, with the handler never having acked.
    const doomed = fx.bus({ drainTimeoutMs: 200 });
    const started = deferred();
    const release = deferred();
    const abandoned = deferred();
    await doomed.work(
      `${u}.jobs`,
      async () => {
        started.resolve();
        await release.promise;
        abandoned.resolve();
      },
      { prefetch: 1 },
    );
    await producer.enqueue(`${u}.jobs`, { n: 1 }, { id: `${u}-job` });
    await started.promise;
    await doomed.close();

    const got: BusMessage[] = [];
    const survivor = fx.bus();
    await survivor.work(
      `${u}.jobs`,
      handle((m) => got.push(m)),
    );
    await waitFor('redelivery to the survivor', () => got.length === 1);
    expect(got[0]).toMatchObject({ id: `${u}-job`, payload: { n: 1 }, attempt: 1 });

    // The abandoned handler finishing late must not ack or duplicate anything: once it is done, a
    // marker enqueued behind anything it could have put back reaches the survivor last.
    release.resolve();
    await abandoned.promise;
    await producer.enqueue(`${u}.jobs`, { n: 2 }, { id: `${u}-marker` });
    await waitFor('the marker', () => got.length >= 2);
    expect(got.map((m) => m.id)).toEqual([`${u}-job`, `${u}-marker`]);
  });

  it('delivers every confirmed message across a broker-side connection drop', async () => {
    const u = uid();
    const { logger, lines } = capturingLogger('warn');
    const consumer = fx.bus({ logger });
    const producer = fx.bus({ logger });
    const seen = new Set<string>();
    await consumer.subscribe(
      `${u}.q`,
      [`${u}.created`],
      async (m) => {
        await sleep(2);
        seen.add(m.id);
      },
      { prefetch: 5 },
    );

    // Publish continuously, without awaiting, so some publishes are unconfirmed at the moment
    // the broker drops the connection: they must be sent again, not fail or vanish.
    const confirmed: string[] = [];
    const failed: unknown[] = [];
    const inFlight: Array<Promise<void>> = [];
    let n = 0;
    let pumping = true;
    const pump = (async () => {
      while (pumping) {
        for (let i = 0; i < 10; i++) {
          const id = `${u}-${n++}`;
          inFlight.push(
            producer.publish(`${u}.created`, { id }, { id }).then(
              () => void confirmed.push(id),
              (err: unknown) => void failed.push(err),
            ),
          );
        }
        await sleep(5);
      }
    })();
    await sleep(100);
    await fx.dropConnections();
    await sleep(300);
    pumping = false;
    await pump;
    await Promise.all(inFlight);

    expect(failed).toEqual([]);
    expect(confirmed).toHaveLength(n);
    await waitFor('every confirmed message consumed', () => confirmed.every((id) => seen.has(id)), 30_000);
    await waitFor(
      'both buses healthy again',
      async () => (await consumer.health()).ok && (await producer.health()).ok,
    );
    if (fx.name === 'amqp') expect(lines.some((l) => l.includes('AMQP connection lost'))).toBe(true);
  });

  it('publishes 2000 messages without waiting for each confirm in turn', async () => {
    const bus = fx.bus();
    const u = uid();
    const seen = new Set<string>();
    await bus.work(
      `${u}.jobs`,
      handle((m) => seen.add(m.id)),
      { prefetch: 200 },
    );
    const ids = Array.from({ length: 2000 }, (_, i) => `${u}-${i}`);
    await Promise.all(ids.map((id, i) => bus.enqueue(`${u}.jobs`, { i }, { id })));
    await waitFor('all 2000 consumed', () => seen.size === 2000, 40_000);
  }, 60_000);

  it('close() waits for an in-flight handler, which then acks; later publishes are refused', async () => {
    const u = uid();
    const bus = fx.bus();
    const started = deferred();
    let finished = false;
    await bus.work(`${u}.jobs`, async () => {
      started.resolve();
      await sleep(300);
      finished = true;
    });
    await bus.enqueue(`${u}.jobs`, {});
    await started.promise;
    await bus.close();
    expect(finished).toBe(true);
    await expect(bus.publish(`${u}.created`, {})).rejects.toBeInstanceOf(BusClosedError);
    expect((await bus.health()).ok).toBe(false);

    // Acked before the close: nobody gets it again. An unacked message would be back at the head
    // of the queue, so it would reach the next consumer before a marker enqueued now.
    const again: BusMessage[] = [];
    const next = fx.bus();
    await next.work(
      `${u}.jobs`,
      handle((m) => again.push(m)),
    );
    await next.enqueue(`${u}.jobs`, {}, { id: `${u}-marker` });
    await waitFor('the marker', () => again.length > 0);
    expect(again.map((m) => m.id)).toEqual([`${u}-marker`]);
  });

  it('delays delivery by delayMs for jobs and events', async () => {
    const bus = fx.bus();
    const u = uid();
    const at: number[] = [];
    await bus.work(
      `${u}.jobs`,
      handle(() => at.push(Date.now())),
    );
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle(() => at.push(Date.now())),
    );
    const t0 = Date.now();
    await bus.enqueue(`${u}.jobs`, {}, { delayMs: 300 });
    await bus.publish(`${u}.created`, {}, { delayMs: 300 });
    await waitFor('both delayed deliveries', () => at.length === 2);
    for (const t of at) expect(t - t0).toBeGreaterThanOrEqual(250);
  });

  it('carries trace context: explicit traceparent headers, and the active span when publishing', async () => {
    const bus = fx.bus();
    const u = uid();
    const got: Array<{ headers: Record<string, string>; traceId: string | undefined }> = [];
    await bus.subscribe(
      `${u}.q`,
      [`${u}.created`],
      handle((m) =>
        got.push({ headers: m.headers, traceId: trace.getSpanContext(context.active())?.traceId }),
      ),
    );

    const explicit = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await bus.publish(`${u}.created`, {}, { headers: { traceparent: explicit, tracestate: 'agora=1' } });

    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const active = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    });
    await context.with(active, () => bus.publish(`${u}.created`, {}));

    await waitFor('two deliveries', () => got.length === 2);
    const byExplicit = got.find((g) => g.headers.traceparent === explicit);
    expect(byExplicit?.headers.tracestate).toBe('agora=1');
    expect(byExplicit?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const byActive = got.find((g) => g !== byExplicit);
    expect(byActive?.headers.traceparent).toContain(traceId);
    expect(byActive?.traceId).toBe(traceId);
  });
});

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

// Services get these two from the OpenTelemetry SDK; this test registers them by hand.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  propagation.disable();
  context.disable();
});
