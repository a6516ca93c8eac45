/**
 * One behaviour suite run against both implementations (memory, on a clock the test moves, and
 * the real Redis, whose key TTLs hold the time), then what only the Redis one promises: replicas
 * share one state, concurrent reports and probes stay atomic, every key expires, and a Redis
 * outage lets deliveries through. No test sleeps: time is moved (memory) or the test waits until
 * Redis shows the key that held the circuit open has expired.
 */
import { closeRedis, connectRedis } from '@agora/common/cache';
import { createLogger } from '@agora/common/logger';
import {
  memoryCircuitBreaker,
  redisCircuitBreaker,
  type CircuitBreaker,
  type CircuitBreakerOptions,
} from '@agora/common/federation';
import type { RedisClientType } from 'redis';
import { testEnv, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
const clients: RedisClientType[] = [];
async function client() {
  const c = await connectRedis(testEnv.redisUrl, logger, 'test');
  clients.push(c);
  return c;
}
afterAll(async () => {
  for (const c of clients) await closeRedis(c);
});

const tick = () => new Promise((r) => setTimeout(r, 10));

/** Polls a recorded state until it holds; fails naming what was awaited. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await tick();
  }
}

// Short enough to wait for on Redis; the probe token outlives any stall of a noisy machine.
const FAST: Required<CircuitBreakerOptions> = {
  threshold: 3,
  cooldownMs: 250,
  maxCooldownMs: 1000,
  probeTimeoutMs: 10_000,
  stateTtlMs: 60_000,
};

const failTimes = async (cb: CircuitBreaker, domain: string, n: number) => {
  for (let i = 0; i < n; i++) await cb.failure(domain);
};
/**
 * A breaker under test and a way to let pass whatever `check` says is left of its cooldown or
 * of the probe token: the memory one's clock moves by exactly that; with Redis, the test waits
 * until the keys holding the circuit open or the token out have expired.
 */
interface Subject {
  cb: CircuitBreaker;
  waitOut: (domain: string) => Promise<void>;
}

function memorySubject(options: CircuitBreakerOptions = FAST): Subject {
  const clock = { t: Date.now() };
  const cb = memoryCircuitBreaker({ ...options, now: () => clock.t });
  return {
    cb,
    waitOut: async (domain) => {
      clock.t += await timeLeft(cb, domain);
    },
  };
}

function redisSubject(r: RedisClientType, prefix: string, options: CircuitBreakerOptions = FAST): Subject {
  const cb = redisCircuitBreaker(r, prefix, options);
  return {
    cb,
    waitOut: async (domain) => {
      const left = await timeLeft(cb, domain);
      const held = [`${prefix}cb:${domain}:open`, `${prefix}cb:${domain}:probe`];
      await until(
        `${domain} open or probing no longer`,
        async () => (await r.exists(held)) === 0,
        left + 10_000,
      );
    },
  };
}

async function timeLeft(cb: CircuitBreaker, domain: string): Promise<number> {
  const state = await cb.check(domain);
  if (!state.open) throw new Error('expected an open circuit');
  return state.retryInMs;
}
const closedAnswers = async (cbs: CircuitBreaker[], domain: string, n: number) => {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => cbs[i % cbs.length]!.check(domain)));
  return answers.filter((a) => !a.open).length;
};

type Make = (options?: CircuitBreakerOptions) => Promise<Subject>;
describe.each<[string, Make]>([
  ['memory', (options) => Promise.resolve(memorySubject(options))],
  ['redis', async (options) => redisSubject(await client(), `${uniqueName('cb')}:`, options)],
])('the %s circuit breaker', (_name, make) => {
  test('opens after the threshold of consecutive failures, for the cooldown', async () => {
    const { cb } = await make();
    await failTimes(cb, 'dead.test', 2);
    expect(await cb.check('dead.test')).toEqual({ open: false });
    await cb.success('dead.test');
    await failTimes(cb, 'dead.test', 2);
    expect(await cb.check('dead.test')).toEqual({ open: false });
    await cb.failure('dead.test');
    const state = await cb.check('dead.test');
    expect(state.open).toBe(true);
    expect(state.open && state.retryInMs).toBeGreaterThan(0);
    expect(state.open && state.retryInMs).toBeLessThanOrEqual(FAST.cooldownMs);
    expect(await cb.check('alive.test')).toEqual({ open: false });
  });

  test('half-open lets exactly one probe through; its failure re-opens for twice as long, up to the cap', async () => {
    const { cb, waitOut } = await make();
    await failTimes(cb, 'd.test', FAST.threshold);
    const cooldowns = [];
    for (let i = 0; i < 4; i++) {
      await waitOut('d.test');
      expect(await closedAnswers([cb], 'd.test', 10)).toBe(1);
      await cb.failure('d.test');
      const state = await cb.check('d.test');
      if (!state.open) throw new Error('expected the failed probe to re-open the circuit');
      cooldowns.push(state.retryInMs);
    }
    // Each re-open is longer than the previous cooldown (it doubled) and within its own bound.
    const bounds = [500, 1000, 1000, 1000];
    cooldowns.forEach((ms, i) => {
      expect(ms).toBeLessThanOrEqual(bounds[i]!);
      expect(ms).toBeGreaterThan(bounds[i]! / 2);
    });
  });

  test('the probe succeeding closes the circuit for everyone and resets count and cooldown', async () => {
    const { cb, waitOut } = await make();
    await failTimes(cb, 'd.test', FAST.threshold);
    await waitOut('d.test');
    expect(await closedAnswers([cb], 'd.test', 5)).toBe(1);
    await cb.failure('d.test'); // cooldown now doubled
    await waitOut('d.test');
    expect(await closedAnswers([cb], 'd.test', 5)).toBe(1);
    await cb.success('d.test');
    expect(await closedAnswers([cb], 'd.test', 5)).toBe(5);
    await failTimes(cb, 'd.test', FAST.threshold - 1);
    expect(await cb.check('d.test')).toEqual({ open: false });
    await cb.failure('d.test');
    const state = await cb.check('d.test');
    expect(state.open && state.retryInMs).toBeLessThanOrEqual(FAST.cooldownMs);
  });

  test('inspect tells closed (with failures), open (time left) and half-open, changing nothing', async () => {
    const { cb, waitOut } = await make();
    expect(await cb.inspect('i.test')).toEqual({ state: 'closed', failures: 0 });
    await failTimes(cb, 'i.test', 2);
    expect(await cb.inspect('i.test')).toEqual({ state: 'closed', failures: 2 });
    await failTimes(cb, 'i.test', FAST.threshold - 2);
    const open = await cb.inspect('i.test');
    expect(open.state).toBe('open');
    expect(open.state === 'open' && open.openForMs).toBeLessThanOrEqual(FAST.cooldownMs);
    await waitOut('i.test');
    expect(await cb.inspect('i.test')).toEqual({ state: 'half-open' });
    // Inspecting took no probe token: the next check is the probe.
    expect(await cb.inspect('i.test')).toEqual({ state: 'half-open' });
    expect(await closedAnswers([cb], 'i.test', 5)).toBe(1);
    await cb.success('i.test');
    expect(await cb.inspect('i.test')).toEqual({ state: 'closed', failures: 0 });
  });

  test('a probe that never reports hands the token on after the probe timeout', async () => {
    const { cb: qcb, waitOut } = await make({ ...FAST, probeTimeoutMs: 150 });
    await failTimes(qcb, 'd.test', FAST.threshold);
    await waitOut('d.test');
    expect(await closedAnswers([qcb], 'd.test', 5)).toBe(1);
    const waiting = await qcb.check('d.test');
    expect(waiting.open && waiting.retryInMs).toBeLessThanOrEqual(150);
    await waitOut('d.test');
    expect(await closedAnswers([qcb], 'd.test', 5)).toBe(1);
  });
});

describe('the Redis circuit breaker, shared by replicas', () => {
  test('replicas on one prefix count failures together and see one circuit', async () => {
    const prefix = `${uniqueName('cb')}:`;
    const a = redisCircuitBreaker(await client(), prefix, FAST);
    const replicaB = redisSubject(await client(), prefix, FAST);
    const b = replicaB.cb;
    await a.failure('d.test');
    await b.failure('d.test');
    expect(await a.check('d.test')).toEqual({ open: false });
    await a.failure('d.test');
    expect((await b.check('d.test')).open).toBe(true);
    await replicaB.waitOut('d.test');
    expect(await closedAnswers([a, b], 'd.test', 20)).toBe(1);
    await b.success('d.test');
    expect(await a.check('d.test')).toEqual({ open: false });
  });

  test('a burst of concurrent failures from many replicas opens the circuit once, at the first cooldown', async () => {
    const prefix = `${uniqueName('cb')}:`;
    const r = await client();
    const replicas = [
      redisCircuitBreaker(r, prefix, FAST),
      redisCircuitBreaker(await client(), prefix, FAST),
    ];
    await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 2]!.failure('d.test')));
    expect(await r.hGetAll(`${prefix}cb:d.test`)).toEqual({ failures: '0', tripped: '1', cooldown: '250' });
    const pttl = await r.pTTL(`${prefix}cb:d.test:open`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(FAST.cooldownMs);
  });

  test('concurrent half-open probes from many replicas: exactly one is let through', async () => {
    const prefix = `${uniqueName('cb')}:`;
    const first = redisSubject(await client(), prefix, FAST);
    const replicas = [
      first.cb,
      ...(await Promise.all([2, 3].map(async () => redisCircuitBreaker(await client(), prefix, FAST)))),
    ];
    await failTimes(first.cb, 'd.test', FAST.threshold);
    await first.waitOut('d.test');
    expect(await closedAnswers(replicas, 'd.test', 30)).toBe(1);
    // The others are told to come back when the probe token lapses at the latest.
    const other = await replicas[1]!.check('d.test');
    expect(other.open && other.retryInMs).toBeGreaterThan(FAST.probeTimeoutMs - 2000);
  });

  test('every key lives under the prefix and expires; a success removes them all', async () => {
    const prefix = `${uniqueName('cb')}:`;
    const r = await client();
    const { cb, waitOut } = redisSubject(r, prefix, FAST);
    await failTimes(cb, 'd.test', FAST.threshold);
    await waitOut('d.test');
    await cb.check('d.test'); // takes the probe token
    await cb.failure('d.test');
    await waitOut('d.test');
    await cb.check('d.test');
    const keys = (await r.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([`${prefix}cb:d.test`, `${prefix}cb:d.test:probe`]);
    for (const k of keys) {
      const pttl = await r.pTTL(k);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(FAST.stateTtlMs);
    }
    await cb.success('d.test');
    expect(await r.keys(`${prefix}*`)).toEqual([]);

    // Opened by its very first failure, the state key is created and given its TTL in one step.
    await redisCircuitBreaker(r, prefix, { ...FAST, threshold: 1 }).failure('one.test');
    expect(await r.pTTL(`${prefix}cb:one.test`)).toBeGreaterThan(0);
  });

  test('a domain nobody reports on any more is forgotten when its state expires', async () => {
    const prefix = `${uniqueName('cb')}:`;
    const r = await client();
    const cb = redisCircuitBreaker(r, prefix, { ...FAST, stateTtlMs: 1200 });
    await failTimes(cb, 'gone.test', FAST.threshold - 1);
    await failTimes(cb, 'dead.test', FAST.threshold);
    await until('every key expired', async () => (await r.keys(`${prefix}*`)).length === 0);
    await cb.failure('gone.test');
    expect(await cb.check('gone.test')).toEqual({ open: false });
    expect(await closedAnswers([cb], 'dead.test', 3)).toBe(3);
  });

  test('another prefix is another deployment', async () => {
    const r = await client();
    const one = redisCircuitBreaker(r, `${uniqueName('one')}:`, FAST);
    const two = redisCircuitBreaker(r, `${uniqueName('two')}:`, FAST);
    await failTimes(one, 'd.test', FAST.threshold);
    expect((await one.check('d.test')).open).toBe(true);
    expect(await two.check('d.test')).toEqual({ open: false });
  });

  test('with Redis away, check lets deliveries through and the reports resolve; errors go to onError', async () => {
    // A closed client rather than an unreachable URL: the latter keeps reconnecting past the test.
    const closed = await client();
    const prefix = `${uniqueName('cb')}:`;
    await failTimes(redisCircuitBreaker(closed, prefix, FAST), 'd.test', FAST.threshold);
    await closeRedis(closed);
    const errors: string[] = [];
    const cb = redisCircuitBreaker(closed, prefix, { ...FAST, onError: (_e, op) => errors.push(op) });
    expect(await cb.check('d.test')).toEqual({ open: false });
    await expect(cb.failure('d.test')).resolves.toBeUndefined();
    await expect(cb.success('d.test')).resolves.toBeUndefined();
    expect(errors).toEqual(['check', 'failure', 'success']);
  });
});
