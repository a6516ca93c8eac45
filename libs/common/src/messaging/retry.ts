/**
 * Retry policy shared by both adapters, so a handler sees the same schedule in standalone and
 * split mode.
 */
import type { ConsumeOptions } from './types';

export const DEFAULT_PREFETCH = 10;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];
/**
 * Retries are spread over [80%, 100%] of the tier delay. Jitter only shortens the delay: the
 * AMQP tier queue's TTL is the upper bound, so per-message expirations below it never hold up
 * messages behind them for longer than the tier (RabbitMQ expires only at the queue head).
 */
export const RETRY_JITTER = 0.2;

export interface ConsumePolicy {
  prefetch: number;
  maxAttempts: number;
  retryDelaysMs: readonly number[];
  exclusive: boolean;
}

export function consumePolicy(opts: ConsumeOptions = {}): ConsumePolicy {
  const delays = opts.retryDelaysMs?.length ? opts.retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
  for (const d of delays) {
    if (!Number.isInteger(d) || d <= 0)
      throw new RangeError(`retryDelaysMs must be positive integers, got ${d}`);
  }
  const prefetch = opts.prefetch ?? DEFAULT_PREFETCH;
  const maxAttempts = opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(prefetch) || prefetch < 1)
    throw new RangeError(`prefetch must be >= 1, got ${prefetch}`);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new RangeError(`maxAttempts must be >= 1, got ${maxAttempts}`);
  return { prefetch, maxAttempts, retryDelaysMs: [...delays], exclusive: opts.exclusive === true };
}

/** The delay tiers a consumer can use; the AMQP adapter declares one delay queue per tier. */
export function retryTiers(policy: ConsumePolicy): number[] {
  if (policy.exclusive) return [];
  const used = policy.retryDelaysMs.slice(0, Math.max(0, policy.maxAttempts - 1));
  return [...new Set(used)];
}

/** Delay before attempt `failedAttempt + 1`: the tier (queue TTL) and the jittered actual delay. */
export function retryDelay(
  policy: ConsumePolicy,
  failedAttempt: number,
  random = Math.random,
): { tierMs: number; delayMs: number } {
  const delays = policy.retryDelaysMs;
  const tierMs = delays[Math.min(failedAttempt - 1, delays.length - 1)] ?? delays[delays.length - 1] ?? 1_000;
  const delayMs = Math.max(1, Math.round(tierMs * (1 - RETRY_JITTER * random())));
  return { tierMs, delayMs };
}
