/**
 * One contract for both MessageBus adapters (style.md §7, §9), part one: delivery and routing.
 * The same cases run against the in-process bus and against RabbitMQ in a vhost of this file's
 * own. Every case uses its own queue and event names, since the vhost (and the memory broker) is
 * shared by the file. Part two (failures, redelivery, close, delays, trace context):
 * messaging-failures.contract.test.ts; what only RabbitMQ does: messaging-amqp.test.ts.
 */
import type { BusMessage } from '@agora/common/messaging';
import { fixtures, handle, sleep, uid, waitFor } from './messaging/fixtures';

const fast = { retryDelaysMs: [50, 100] };

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
});
