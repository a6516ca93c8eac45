/** Bus metrics over the real in-process bus: outcomes as the adapter settles them, and depths. */
import { createLogger } from '../logger';
import { createBus, PermanentMessageError, type MessageBus } from '../messaging';
import { registry } from './registry';

const logger = createLogger({ level: 'silent', service: 'test' });

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const hit = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return hit?.value ?? 0;
}

async function settled(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('bus metrics', () => {
  let bus: MessageBus;
  beforeEach(() => {
    bus = createBus({ logger, service: 'test' });
  });
  afterEach(() => bus.close());

  it('counts publishes, and deliveries as ok, retry and dead', async () => {
    const queue = `q-${Date.now()}`;
    await bus.work<{ kind: string }>(
      queue,
      (msg) => {
        if (msg.payload.kind === 'bad') throw new PermanentMessageError('bad');
        if (msg.payload.kind === 'flaky' && msg.attempt === 1) throw new Error('once');
        return Promise.resolve();
      },
      { retryDelaysMs: [1], maxAttempts: 3 },
    );
    for (const kind of ['good', 'flaky', 'bad']) await bus.enqueue(queue, { kind });
    await settled(async () => (await value('agora_bus_consumed_total', { queue, outcome: 'ok' })) === 2);
    expect(await value('agora_bus_published_total', { name: queue, outcome: 'ok' })).toBe(3);
    expect(await value('agora_bus_consumed_total', { queue, outcome: 'ok' })).toBe(2);
    expect(await value('agora_bus_consumed_total', { queue, outcome: 'retry' })).toBe(1);
    expect(await value('agora_bus_consumed_total', { queue, outcome: 'dead' })).toBe(1);
    // The dead-lettered message waits in `<queue>.dead`, read at scrape time.
    expect(await value('agora_bus_queue_depth', { queue, state: 'dead' })).toBe(1);
    expect(await value('agora_bus_queue_depth', { queue, state: 'ready' })).toBe(0);
  });

  it('counts a publish that fails as an error', async () => {
    await bus.close();
    await expect(bus.publish('post.created', {})).rejects.toThrow();
    expect(await value('agora_bus_published_total', { name: 'post.created', outcome: 'error' })).toBe(1);
  });
});
