/**
 * Per-domain circuit breaker for deliveries (decisions.md §6): after `threshold` consecutive
 * transient failures a domain's circuit opens for a cooldown, during which the worker delays its
 * jobs instead of sending; after the cooldown one probe goes through (half-open); its success
 * closes the circuit, its failure re-opens it for twice as long, up to `maxCooldownMs`.
 *
 * Report `success` for any answer that shows the server is up (delivered, or a permanent 4xx) and
 * `failure` for transient outcomes only (timeouts, network errors, 408, 429, 5xx): a 404 is the
 * peer talking. Refused addresses concern neither.
 *
 * Redis when REDIS_URL is set, so every worker replica sees one state per domain; memory
 * otherwise (standalone: one process).
 */
import type { RedisClientType } from 'redis';

export type CircuitState = { open: false } | { open: true; retryInMs: number };

/**
 * What the breaker holds for a domain, without changing it (unlike `check`, which hands out the
 * half-open probe): closed; open with the time left; or half-open (the cool-down is over, the next
 * send is a probe).
 */
export type CircuitView =
  { state: 'closed'; failures: number } | { state: 'open'; openForMs: number } | { state: 'half-open' };

export interface CircuitBreaker {
  /** Closed: send. Open: do not send; delay the job by about `retryInMs`. Never rejects. */
  check(domain: string): Promise<CircuitState>;
  /** The domain answered; closes the circuit and forgets its failures. Never rejects. */
  success(domain: string): Promise<void>;
  /** A transient failure; may open or re-open the circuit. Never rejects. */
  failure(domain: string): Promise<void>;
  /** The domain's state, changing nothing. Never rejects (closed when the store cannot answer). */
  inspect(domain: string): Promise<CircuitView>;
}

export interface CircuitBreakerOptions {
  /** Consecutive transient failures that open the circuit. */
  threshold?: number;
  /** How long the circuit stays open the first time. */
  cooldownMs?: number;
  /** Each re-open doubles the cooldown, up to this. */
  maxCooldownMs?: number;
  /**
   * How long a half-open probe holds the token. Past it, if neither success nor failure came back
   * (the worker died mid-send), the next caller probes. Longer than one attempt's 10 s limit.
   */
  probeTimeoutMs?: number;
  /**
   * A domain's state is forgotten this long after its last failure, so a dead domain nobody
   * delivers to any more leaves nothing behind. Longer than `maxCooldownMs`.
   */
  stateTtlMs?: number;
}

export const CIRCUIT_DEFAULTS = {
  threshold: 5,
  cooldownMs: 5 * 60_000,
  maxCooldownMs: 3600_000,
  probeTimeoutMs: 30_000,
  stateTtlMs: 24 * 3600_000,
} as const satisfies Required<CircuitBreakerOptions>;

function settings(options: CircuitBreakerOptions): Required<CircuitBreakerOptions> {
  const s = { ...CIRCUIT_DEFAULTS, ...definedOnly(options) };
  if (!Number.isInteger(s.threshold) || s.threshold < 1) throw new RangeError('threshold must be ≥ 1');
  for (const k of ['cooldownMs', 'maxCooldownMs', 'probeTimeoutMs', 'stateTtlMs'] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 1) throw new RangeError(`${k} must be a positive integer`);
  }
  if (s.maxCooldownMs < s.cooldownMs) throw new RangeError('maxCooldownMs must be ≥ cooldownMs');
  if (s.stateTtlMs <= s.maxCooldownMs) throw new RangeError('stateTtlMs must exceed maxCooldownMs');
  return s;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface DomainState {
  /** Consecutive failures while closed. */
  failures: number;
  /** Opened at least once since the last success: past `openUntil` it is half-open, not closed. */
  tripped: boolean;
  /** The cooldown of the latest opening; the next re-open doubles it. */
  cooldownMs: number;
  openUntil: number;
  /** While in the future, a probe is out and other callers wait. */
  probeUntil: number;
  forgetAt: number;
}

const SWEEP_EVERY_MS = 60_000;

export function memoryCircuitBreaker(
  options: CircuitBreakerOptions & { now?: () => number } = {},
): CircuitBreaker & { readonly size: number } {
  const { now = Date.now } = options;
  const s = settings(options);
  const domains = new Map<string, DomainState>();
  let lastSweep = now();

  function stateOf(domain: string, t: number): DomainState | undefined {
    if (t - lastSweep >= SWEEP_EVERY_MS) {
      for (const [d, st] of domains) if (st.forgetAt <= t) domains.delete(d);
      lastSweep = t;
    }
    const st = domains.get(domain);
    if (st && st.forgetAt <= t) {
      domains.delete(domain);
      return undefined;
    }
    return st;
  }

  return {
    check(domain) {
      const t = now();
      const st = stateOf(domain, t);
      if (!st?.tripped) return Promise.resolve({ open: false });
      if (t < st.openUntil) return Promise.resolve({ open: true, retryInMs: st.openUntil - t });
      if (t < st.probeUntil) return Promise.resolve({ open: true, retryInMs: st.probeUntil - t });
      st.probeUntil = t + s.probeTimeoutMs;
      return Promise.resolve({ open: false });
    },
    success(domain) {
      domains.delete(domain);
      return Promise.resolve();
    },
    failure(domain) {
      const t = now();
      const st = stateOf(domain, t) ?? {
        failures: 0,
        tripped: false,
        cooldownMs: 0,
        openUntil: 0,
        probeUntil: 0,
        forgetAt: 0,
      };
      domains.set(domain, st);
      st.forgetAt = t + s.stateTtlMs;
      // A late report from a send that started before the circuit opened changes nothing.
      if (st.tripped && t < st.openUntil) return Promise.resolve();
      if (!st.tripped && ++st.failures < s.threshold) return Promise.resolve();
      st.cooldownMs = st.tripped ? Math.min(st.cooldownMs * 2, s.maxCooldownMs) : s.cooldownMs;
      st.tripped = true;
      st.failures = 0;
      st.openUntil = t + st.cooldownMs;
      st.probeUntil = 0;
      return Promise.resolve();
    },
    inspect(domain) {
      const t = now();
      const st = stateOf(domain, t);
      if (!st?.tripped) return Promise.resolve({ state: 'closed', failures: st?.failures ?? 0 });
      if (t < st.openUntil) return Promise.resolve({ state: 'open', openForMs: st.openUntil - t });
      return Promise.resolve({ state: 'half-open' });
    },
    get size() {
      return domains.size;
    },
  };
}

/*
 * Redis keys of one domain, all under `${prefix}cb:<domain>`:
 *   cb:<domain>        hash { failures, tripped, cooldown }, expires stateTtlMs after the last failure
 *   cb:<domain>:open   exists while open; its PTTL is the time left
 *   cb:<domain>:probe  the half-open probe token, taken with SET NX PX
 * Each operation is one Lua script, so replicas reporting at once cannot both cross the threshold
 * or double the cooldown twice; time lives in key TTLs, so replica clocks never need to agree.
 */

/** Returns 0 when closed (the caller may send: maybe as the probe), else the ms to wait. */
const CHECK = `
local open = redis.call('PTTL', KEYS[2])
if open > 0 then return open end
if redis.call('HGET', KEYS[1], 'tripped') ~= '1' then return 0 end
if redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[1]) then return 0 end
local probe = redis.call('PTTL', KEYS[3])
if probe > 0 then return probe end
return 1
`;

/** ARGV: threshold, cooldownMs, maxCooldownMs, stateTtlMs. */
const FAILURE = `
if redis.call('PTTL', KEYS[2]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 0
end
local cooldown
if redis.call('HGET', KEYS[1], 'tripped') == '1' then
  local last = tonumber(redis.call('HGET', KEYS[1], 'cooldown')) or tonumber(ARGV[2])
  cooldown = math.min(last * 2, tonumber(ARGV[3]))
else
  local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
  if failures < tonumber(ARGV[1]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return 0
  end
  cooldown = tonumber(ARGV[2])
end
redis.call('HSET', KEYS[1], 'failures', 0, 'tripped', '1', 'cooldown', cooldown)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], '1', 'PX', cooldown)
redis.call('DEL', KEYS[3])
return cooldown
`;

export interface RedisCircuitBreakerOptions extends CircuitBreakerOptions {
  /**
   * Called with any Redis failure, for the caller to log; the breaker logs nothing itself and
   * always answers (see below).
   */
  onError?: (err: unknown, operation: 'check' | 'success' | 'failure' | 'inspect', domain: string) => void;
  /** A Redis call slower than this counts as failed; a hung Redis must not hang deliveries. */
  commandTimeoutMs?: number;
}

/**
 * Shared by every worker replica. When Redis fails, `check` answers closed and the reports are
 * dropped: the breaker only saves a dead server (and our workers) useless attempts, while every
 * delivery is retried on its own schedule anyway and ends in the dead letters at worst. Failing
 * closed would let a Redis outage stop all federation; failing open costs some wasted requests.
 */
export function redisCircuitBreaker(
  client: RedisClientType,
  prefix: string,
  options: RedisCircuitBreakerOptions = {},
): CircuitBreaker {
  const s = settings(options);
  const { onError, commandTimeoutMs = 1000 } = options;
  const keys = (domain: string) => {
    const base = `${prefix}cb:${domain}`;
    return [base, `${base}:open`, `${base}:probe`];
  };

  async function run<T>(
    operation: 'check' | 'success' | 'failure' | 'inspect',
    domain: string,
    fallback: T,
    command: () => Promise<T>,
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`circuit breaker ${operation} timed out after ${commandTimeoutMs} ms`)),
          commandTimeoutMs,
        );
      });
      return await Promise.race([command(), timeout]);
    } catch (err) {
      onError?.(err, operation, domain);
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    check: (domain) =>
      run<CircuitState>('check', domain, { open: false }, async () => {
        const wait = Number(
          await client.eval(CHECK, { keys: keys(domain), arguments: [String(s.probeTimeoutMs)] }),
        );
        return wait > 0 ? { open: true, retryInMs: wait } : { open: false };
      }),
    success: (domain) =>
      run('success', domain, undefined, async () => {
        await client.del(keys(domain));
      }),
    failure: (domain) =>
      run('failure', domain, undefined, async () => {
        await client.eval(FAILURE, {
          keys: keys(domain),
          arguments: [s.threshold, s.cooldownMs, s.maxCooldownMs, s.stateTtlMs].map(String),
        });
      }),
    inspect: (domain) =>
      run<CircuitView>('inspect', domain, { state: 'closed', failures: 0 }, async () => {
        const [hash, open] = keys(domain) as [string, string];
        const [fields, openMs] = await Promise.all([client.hGetAll(hash), client.pTTL(open)]);
        if (openMs > 0) return { state: 'open', openForMs: openMs };
        if (fields.tripped === '1') return { state: 'half-open' };
        return { state: 'closed', failures: Number(fields.failures ?? 0) || 0 };
      }),
  };
}
