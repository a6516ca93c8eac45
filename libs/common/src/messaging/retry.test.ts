import { consumePolicy, retryDelay, retryTiers, DEFAULT_RETRY_DELAYS_MS } from './retry';

describe('retry policy', () => {
  it('defaults to 5 attempts over the exponential schedule', () => {
    const p = consumePolicy();
    expect(p.maxAttempts).toBe(5);
    expect(p.retryDelaysMs).toEqual(DEFAULT_RETRY_DELAYS_MS);
    // 5 attempts need 4 delays; the 10 min tier is only used with maxAttempts > 5.
    expect(retryTiers(p)).toEqual([1_000, 5_000, 30_000, 120_000]);
  });

  it('repeats the last delay and jitters downward only', () => {
    const p = consumePolicy({ retryDelaysMs: [50, 100], maxAttempts: 6 });
    expect(retryTiers(p)).toEqual([50, 100]);
    expect(retryDelay(p, 1, () => 0)).toEqual({ tierMs: 50, delayMs: 50 });
    expect(retryDelay(p, 4, () => 0)).toEqual({ tierMs: 100, delayMs: 100 });
    expect(retryDelay(p, 2, () => 1)).toEqual({ tierMs: 100, delayMs: 80 });
  });

  it('rejects nonsense options', () => {
    expect(() => consumePolicy({ prefetch: 0 })).toThrow(RangeError);
    expect(() => consumePolicy({ retryDelaysMs: [-1] })).toThrow(RangeError);
  });
});
