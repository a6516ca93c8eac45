/**
 * The memory circuit breaker on a fake clock, and the Redis one's failure mode (open to sending)
 * with stand-in clients. The Redis breaker against a real Redis: test/integration/federation.
 */
import type { RedisClientType } from 'redis';
import { CIRCUIT_DEFAULTS, memoryCircuitBreaker, redisCircuitBreaker } from './circuit-breaker';

const MIN = 60_000;

function breaker(options: Parameters<typeof memoryCircuitBreaker>[0] = {}) {
  const clock = { t: 1_000_000 };
  const cb = memoryCircuitBreaker({ now: () => clock.t, ...options });
  const fail = async (domain: string, times: number) => {
    for (let i = 0; i < times; i++) await cb.failure(domain);
  };
  return { cb, clock, fail };
}

test('the defaults: 5 failures, 5 minutes, doubling up to an hour', () => {
  expect(CIRCUIT_DEFAULTS).toMatchObject({ threshold: 5, cooldownMs: 5 * MIN, maxCooldownMs: 60 * MIN });
});

test('closed until the threshold of consecutive failures, then open for the cooldown', async () => {
  const { cb, clock, fail } = breaker();
  await fail('dead.test', 4);
  expect(await cb.check('dead.test')).toEqual({ open: false });
  await cb.failure('dead.test');
  expect(await cb.check('dead.test')).toEqual({ open: true, retryInMs: 5 * MIN });
  clock.t += 2 * MIN;
  expect(await cb.check('dead.test')).toEqual({ open: true, retryInMs: 3 * MIN });
  expect(await cb.check('alive.test')).toEqual({ open: false });
});

test('a success in between resets the count: failures must be consecutive', async () => {
  const { cb, fail } = breaker();
  await fail('flaky.test', 4);
  await cb.success('flaky.test');
  await fail('flaky.test', 4);
  expect(await cb.check('flaky.test')).toEqual({ open: false });
  await cb.failure('flaky.test');
  expect((await cb.check('flaky.test')).open).toBe(true);
});

test('after the cooldown exactly one caller probes; the others wait for its answer', async () => {
  const { cb, clock, fail } = breaker({ probeTimeoutMs: 30_000 });
  await fail('d.test', 5);
  clock.t += 5 * MIN;
  expect(await cb.check('d.test')).toEqual({ open: false });
  expect(await cb.check('d.test')).toEqual({ open: true, retryInMs: 30_000 });
  clock.t += 10_000;
  expect(await cb.check('d.test')).toEqual({ open: true, retryInMs: 20_000 });
});

test('a probe that never reports (a worker died) hands the token on after its timeout', async () => {
  const { cb, clock, fail } = breaker({ probeTimeoutMs: 30_000 });
  await fail('d.test', 5);
  clock.t += 5 * MIN;
  expect(await cb.check('d.test')).toEqual({ open: false });
  clock.t += 30_000;
  expect(await cb.check('d.test')).toEqual({ open: false });
  expect((await cb.check('d.test')).open).toBe(true);
});

test('the probe succeeding closes the circuit and resets everything', async () => {
  const { cb, clock, fail } = breaker();
  await fail('d.test', 5);
  clock.t += 5 * MIN;
  await cb.check('d.test');
  await cb.success('d.test');
  for (let i = 0; i < 3; i++) expect(await cb.check('d.test')).toEqual({ open: false });
  // Reset means: a full threshold again, and the first cooldown again (not a doubled one).
  await fail('d.test', 4);
  expect(await cb.check('d.test')).toEqual({ open: false });
  await cb.failure('d.test');
  expect(await cb.check('d.test')).toEqual({ open: true, retryInMs: 5 * MIN });
});

test('the probe failing re-opens at once with the cooldown doubled, capped at the maximum', async () => {
  const { cb, clock, fail } = breaker();
  await fail('d.test', 5);
  const cooldowns = [];
  for (let i = 0; i < 6; i++) {
    const state = await cb.check('d.test');
    if (!state.open) throw new Error('expected open');
    cooldowns.push(state.retryInMs);
    clock.t += state.retryInMs;
    expect(await cb.check('d.test')).toEqual({ open: false });
    await cb.failure('d.test');
  }
  expect(cooldowns).toEqual([5, 10, 20, 40, 60, 60].map((m) => m * MIN));
});

test('a late failure from a send started before the circuit opened neither extends nor re-counts', async () => {
  const { cb, clock, fail } = breaker();
  await fail('d.test', 5);
  clock.t += MIN;
  await fail('d.test', 10);
  expect(await cb.check('d.test')).toEqual({ open: true, retryInMs: 4 * MIN });
  clock.t += 4 * MIN;
  expect(await cb.check('d.test')).toEqual({ open: false });
  await cb.failure('d.test');
  expect(await cb.check('d.test')).toEqual({ open: true, retryInMs: 10 * MIN });
});

test('a domain nobody reports on is forgotten after the state TTL', async () => {
  const { cb, clock, fail } = breaker({ stateTtlMs: 24 * 60 * MIN });
  await fail('gone.test', 4);
  await fail('dead.test', 5);
  await fail('other.test', 1);
  expect(cb.size).toBe(3);
  clock.t += 24 * 60 * MIN;
  // The failures before the gap no longer count, and the dead domain is closed and fresh again.
  await cb.failure('gone.test');
  expect(await cb.check('gone.test')).toEqual({ open: false });
  // Closed, not half-open: a second caller is not held back behind a probe.
  expect(await cb.check('dead.test')).toEqual({ open: false });
  expect(await cb.check('dead.test')).toEqual({ open: false });
  expect(cb.size).toBe(1);
});

test('nonsense options are refused', () => {
  expect(() => memoryCircuitBreaker({ threshold: 0 })).toThrow(RangeError);
  expect(() => memoryCircuitBreaker({ cooldownMs: 0 })).toThrow(RangeError);
  expect(() => memoryCircuitBreaker({ cooldownMs: 10_000, maxCooldownMs: 5_000 })).toThrow(RangeError);
  expect(() => memoryCircuitBreaker({ maxCooldownMs: 10_000, stateTtlMs: 10_000 })).toThrow(RangeError);
  expect(() => memoryCircuitBreaker({ threshold: undefined })).not.toThrow();
});

describe('the Redis breaker when Redis fails', () => {
  const failing = {
    eval: () => Promise.reject(new Error('connection lost')),
    del: () => Promise.reject(new Error('connection lost')),
  } as unknown as RedisClientType;
  const hanging = {
    eval: () => new Promise(() => undefined),
    del: () => new Promise(() => undefined),
  } as unknown as RedisClientType;

  test('check answers closed (send), reports never reject, and the error goes to onError only', async () => {
    const errors: [string, string][] = [];
    const cb = redisCircuitBreaker(failing, 'x:', {
      onError: (err, op, domain) => errors.push([`${op} ${domain}`, (err as Error).message]),
    });
    expect(await cb.check('d.test')).toEqual({ open: false });
    await expect(cb.failure('d.test')).resolves.toBeUndefined();
    await expect(cb.success('d.test')).resolves.toBeUndefined();
    expect(errors).toEqual([
      ['check d.test', 'connection lost'],
      ['failure d.test', 'connection lost'],
      ['success d.test', 'connection lost'],
    ]);
  });

  test('a Redis that never answers is given up on after commandTimeoutMs', async () => {
    const errors: unknown[] = [];
    const cb = redisCircuitBreaker(hanging, 'x:', { commandTimeoutMs: 50, onError: (e) => errors.push(e) });
    // Were it waiting on Redis, the test would hit Jest's 5 s limit and fail.
    expect(await cb.check('d.test')).toEqual({ open: false });
    await cb.failure('d.test');
    expect(errors).toHaveLength(2);
    expect(String(errors[0])).toMatch(/timed out after 50 ms/);
  });

  test('without onError it is silent and still answers', async () => {
    const cb = redisCircuitBreaker(failing, 'x:');
    expect(await cb.check('d.test')).toEqual({ open: false });
    await expect(cb.failure('d.test')).resolves.toBeUndefined();
  });
});
