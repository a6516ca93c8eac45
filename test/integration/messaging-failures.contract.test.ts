/**
 * The MessageBus contract, part two (part one: messaging.contract.test.ts): retries and dead
 * letters, redelivery when a consumer or the connection goes away, many publishes, close, delays
 * and trace context, against the in-process bus and RabbitMQ in a vhost of this file's own.
 */
import { ROOT_CONTEXT, context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BusClosedError,
  DEAD_REASON_HEADER,
  PermanentMessageError,
  type BusMessage,
} from '@agora/common/messaging';
import { capturingLogger, deferred, fixtures, handle, sleep, uid, waitFor } from './messaging/fixtures';

const fast = { retryDelaysMs: [50, 100] };

describe.each(fixtures())('MessageBus contract: $name', (fx) => {
  beforeAll(() => fx.setup());
  afterAll(() => fx.teardown());
  afterEach(() => fx.closeAll());

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

// Services get these two from the OpenTelemetry SDK; this test registers them by hand.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  propagation.disable();
  context.disable();
});
