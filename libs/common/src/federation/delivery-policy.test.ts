/** The delivery policy of decisions.md §6: sorting answers, Retry-After, and the retry schedule. */
import {
  classifyDelivery,
  delayForAttempt,
  DELIVERY_MAX_ATTEMPTS,
  nextDelay,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  retrySchedule,
} from './delivery-policy';

const NOW = new Date('2025-03-01T12:00:00Z');
const HOUR = 3600_000;
const lowest = () => 0;
const highest = () => 1 - Number.EPSILON;

describe('classifyDelivery', () => {
  test.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(classifyDelivery(status)).toEqual({ outcome: 'delivered' });
  });

  test.each([400, 401, 403, 404, 405, 410, 413, 415, 422, 451, 499])(
    '%i is permanent, not retried',
    (status) => {
      expect(classifyDelivery(status)).toEqual({ outcome: 'permanent', reason: `http_${status}` });
    },
  );

  test.each([408, 429, 500, 502, 503, 504, 599])('%i is transient', (status) => {
    expect(classifyDelivery(status)).toEqual({ outcome: 'transient', reason: `http_${status}` });
  });

  test.each([100, 101, 199, 300, 301, 302, 304, 307, 308, 399])('a leftover %i is transient', (status) => {
    expect(classifyDelivery(status)).toMatchObject({ outcome: 'transient' });
  });

  test('timeouts and network errors are transient; an address the SSRF guard refuses is permanent', () => {
    expect(classifyDelivery('timeout')).toEqual({ outcome: 'transient', reason: 'timeout' });
    expect(classifyDelivery('network')).toEqual({ outcome: 'transient', reason: 'network' });
    expect(classifyDelivery('forbidden_address')).toEqual({
      outcome: 'permanent',
      reason: 'forbidden_address',
    });
  });

  test('Retry-After is honoured on 429 and 503, in seconds or as an HTTP-date', () => {
    expect(classifyDelivery(429, { 'retry-after': '120' }, NOW)).toEqual({
      outcome: 'transient',
      reason: 'http_429',
      retryAfterMs: 120_000,
    });
    expect(classifyDelivery(503, { 'retry-after': 'Sat, 01 Mar 2025 12:10:00 GMT' }, NOW)).toEqual({
      outcome: 'transient',
      reason: 'http_503',
      retryAfterMs: 600_000,
    });
  });

  test('Retry-After on any other transient status counts too; on a permanent or delivered one it is moot', () => {
    expect(classifyDelivery(500, { 'Retry-After': '7' }, NOW)).toMatchObject({ retryAfterMs: 7000 });
    expect(classifyDelivery(408, { 'retry-after': ['3', '9'] }, NOW)).toMatchObject({ retryAfterMs: 3000 });
    expect(classifyDelivery(404, { 'retry-after': '60' }, NOW)).toEqual({
      outcome: 'permanent',
      reason: 'http_404',
    });
    expect(classifyDelivery(202, { 'retry-after': '60' }, NOW)).toEqual({ outcome: 'delivered' });
  });

  test('a malformed Retry-After leaves the transient outcome without a hint', () => {
    const outcome = classifyDelivery(429, { 'retry-after': 'soon' }, NOW);
    expect(outcome).toEqual({ outcome: 'transient', reason: 'http_429' });
    expect('retryAfterMs' in outcome).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  test('delta-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1000);
    expect(parseRetryAfter(' 90 ', NOW)).toBe(90_000);
  });

  test('the three HTTP-date formats of RFC 9110, all read as GMT', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 13:00:00 GMT', NOW)).toBe(HOUR);
    expect(parseRetryAfter('Saturday, 01-Mar-25 13:00:00 GMT', NOW)).toBe(HOUR);
    expect(parseRetryAfter('Sat Mar  1 13:00:00 2025', NOW)).toBe(HOUR);
    expect(parseRetryAfter('Sat Mar 11 12:00:00 2025', NOW)).toBe(RETRY_AFTER_CAP_MS);
  });

  test('a date equal to now means now; a date already past is ignored', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:59:59 GMT', NOW)).toBeUndefined();
    // A two-digit year more than 50 years ahead is the century before: long past.
    expect(parseRetryAfter('Monday, 01-Mar-99 12:00:00 GMT', NOW)).toBeUndefined();
  });

  test.each([
    undefined,
    '',
    '-5',
    '-0',
    '1.5',
    '1e3',
    '0x10',
    '12 s',
    'soon',
    'tomorrow',
    '2025-03-01T13:00:00Z',
    'Sat, 01 Mar 2025 13:00:00',
    'Sat, 01 Mar 2025 13:00:00 UTC',
    'Sat, 1 Mar 2025 13:00:00 GMT',
    'Sat, 31 Feb 2025 13:00:00 GMT',
    'Sat, 01 Mar 2025 25:00:00 GMT',
    'Sat, 01 Mar 2025 13:60:00 GMT',
    'Sat, 01 Foo 2025 13:00:00 GMT',
  ])('garbage %p is ignored', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  test('capped at 6 hours, in either form', () => {
    expect(RETRY_AFTER_CAP_MS).toBe(6 * HOUR);
    expect(parseRetryAfter(String(6 * 3600), NOW)).toBe(6 * HOUR);
    expect(parseRetryAfter(String(6 * 3600 + 1), NOW)).toBe(6 * HOUR);
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(6 * HOUR);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:00 GMT', NOW)).toBe(6 * HOUR);
  });
});

describe('retry schedule', () => {
  const schedule = retrySchedule();
  const attempts = Array.from({ length: schedule.retries }, (_, i) => i + 1);

  test('at least 8 attempts, spread over at least an hour even when every jitter draw is lowest', () => {
    expect(schedule.maxAttempts).toBe(DELIVERY_MAX_ATTEMPTS);
    expect(DELIVERY_MAX_ATTEMPTS).toBeGreaterThanOrEqual(8);
    expect(schedule.retries).toBeGreaterThanOrEqual(8);
    const minimum = attempts.reduce((sum, a) => sum + delayForAttempt(a, lowest), 0);
    expect(minimum).toBeGreaterThanOrEqual(HOUR);
    // The brief's example steps: 30 s doubling, half of it being the jitter floor.
    expect(delayForAttempt(1, lowest)).toBe(15_000);
    expect(delayForAttempt(1, highest)).toBeLessThanOrEqual(30_000);
  });

  test('delays grow: floors and ceilings rise with each retry; below the cap, whatever the jitter', () => {
    for (const a of attempts.slice(1)) {
      const { minMs, maxMs } = schedule.boundsForAttempt(a);
      const before = schedule.boundsForAttempt(a - 1);
      expect(minMs).toBeGreaterThan(before.minMs);
      expect(maxMs).toBeGreaterThanOrEqual(before.maxMs);
      if (maxMs < 2 * HOUR) {
        expect(maxMs).toBe(2 * before.maxMs);
        expect(delayForAttempt(a, lowest)).toBeGreaterThanOrEqual(delayForAttempt(a - 1, highest));
      }
    }
  });

  test('each step is capped at 2 hours and stays there for any attempt number', () => {
    for (const a of [9, 10, 20, 100, 10_000]) {
      expect(delayForAttempt(a, highest)).toBeLessThanOrEqual(2 * HOUR);
      expect(delayForAttempt(a, lowest)).toBe(HOUR);
    }
  });

  test('jitter draws within [nominal/2, nominal] and actually varies', () => {
    for (const a of attempts) {
      const { minMs, maxMs } = schedule.boundsForAttempt(a);
      expect(minMs).toBe(Math.ceil(maxMs / 2));
      for (const r of [0, 0.25, 0.5, 0.999999, 1, -1, 2]) {
        const d = delayForAttempt(a, () => r);
        expect(d).toBeGreaterThanOrEqual(minMs);
        expect(d).toBeLessThanOrEqual(maxMs);
      }
      const draws = new Set(Array.from({ length: 50 }, () => delayForAttempt(a)));
      expect(draws.size).toBeGreaterThan(1);
      for (const d of draws) expect(d).toBeGreaterThanOrEqual(minMs);
    }
  });

  test('Retry-After wins when longer than the backoff, not when shorter', () => {
    const backoff = delayForAttempt(1, lowest);
    expect(nextDelay(1, undefined, lowest)).toBe(backoff);
    expect(nextDelay(1, 10 * 60_000, lowest)).toBe(10 * 60_000);
    expect(nextDelay(1, 1000, lowest)).toBe(backoff);
    expect(nextDelay(1, 0, lowest)).toBe(backoff);
    expect(nextDelay(1, -5000, lowest)).toBe(backoff);
    expect(nextDelay(1, Number.NaN, lowest)).toBe(backoff);
    // A raw value that skipped classifyDelivery is still held to the cap.
    expect(nextDelay(1, 48 * HOUR, lowest)).toBe(RETRY_AFTER_CAP_MS);
  });

  test('a custom schedule (short delays for tests and local setups) keeps the same shape', () => {
    const quick = retrySchedule({ maxAttempts: 4, baseMs: 100, stepCapMs: 300 });
    expect(quick.retries).toBe(3);
    expect([1, 2, 3, 4].map((a) => quick.boundsForAttempt(a))).toEqual([
      { minMs: 50, maxMs: 100 },
      { minMs: 100, maxMs: 200 },
      { minMs: 150, maxMs: 300 },
      { minMs: 150, maxMs: 300 },
    ]);
    expect(quick.nextDelay(1, 250, lowest)).toBe(250);
  });

  test('nonsense attempts and options are programming errors', () => {
    expect(() => delayForAttempt(0)).toThrow(RangeError);
    expect(() => delayForAttempt(1.5)).toThrow(RangeError);
    expect(() => retrySchedule({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => retrySchedule({ baseMs: 0 })).toThrow(RangeError);
    expect(() => retrySchedule({ baseMs: 1000, stepCapMs: 10 })).toThrow(RangeError);
  });
});
