/**
 * Delivery policy (decisions.md §6): which answers from a remote inbox end a delivery, which are
 * worth another attempt, and when that attempt happens. Pure functions; the delivery worker owns
 * the queue, the HTTP call and the dead letters.
 */

/** What one attempt produced: an HTTP status, or the safe fetch's failure before any status. */
/** `unsendable`: never sent, the activity has no form the peer's wire can carry (ActivityPub). */
export type DeliveryAttemptResult = number | 'timeout' | 'network' | 'forbidden_address' | 'unsendable';

export type DeliveryOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'permanent'; reason: string }
  | { outcome: 'transient'; reason: string; retryAfterMs?: number };

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** A Retry-After further out than this is clamped: a peer cannot park our jobs for days. */
export const RETRY_AFTER_CAP_MS = 6 * 3600_000;

/**
 * 2xx delivered; 4xx except 408 and 429 permanent (the peer understood and refused: 404 and 410
 * included, the inbox is gone); 408, 429, 5xx, timeouts and network errors transient; an address
 * refused by the SSRF guard permanent (resolving again later will not make it allowed); anything
 * else (1xx, unfollowed 3xx) transient, since it says nothing about the activity.
 */
export function classifyDelivery(
  result: DeliveryAttemptResult,
  headers: ResponseHeaders = {},
  now: Date = new Date(),
): DeliveryOutcome {
  if (result === 'forbidden_address' || result === 'unsendable')
    return { outcome: 'permanent', reason: result };
  if (result === 'timeout' || result === 'network') return { outcome: 'transient', reason: result };
  if (result >= 200 && result < 300) return { outcome: 'delivered' };
  const reason = `http_${result}`;
  if (result >= 400 && result < 500 && result !== 408 && result !== 429) {
    return { outcome: 'permanent', reason };
  }
  // Honoured on 429 and 503 as RFC 9110 defines, and on any other transient answer carrying it.
  const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), now);
  return retryAfterMs === undefined
    ? { outcome: 'transient', reason }
    : { outcome: 'transient', reason, retryAfterMs };
}

/**
 * Retry-After in milliseconds from `now`, clamped to RETRY_AFTER_CAP_MS; undefined when absent,
 * malformed, negative or a date already past. Both forms of RFC 9110 §10.2.3: delta-seconds, and
 * an HTTP-date in any of the three formats a recipient must accept (§5.6.7).
 */
export function parseRetryAfter(value: string | undefined, now: Date = new Date()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, RETRY_AFTER_CAP_MS);
  const at = parseHttpDate(text, now);
  if (at === undefined) return undefined;
  const ms = at - now.getTime();
  return ms < 0 ? undefined : Math.min(ms, RETRY_AFTER_CAP_MS);
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * Parsed by hand rather than with Date.parse, which accepts nearly anything ("1" is a date in
 * 2001) and reads asctime, which carries no zone, as local time.
 */
function parseHttpDate(text: string, now: Date): number | undefined {
  let parts: [day: string, month: string, year: number, hh: string, mm: string, ss: string];
  let m: RegExpExecArray | null;
  if ((m = IMF_FIXDATE.exec(text))) {
    parts = [m[1]!, m[2]!, Number(m[3]), m[4]!, m[5]!, m[6]!];
  } else if ((m = RFC850_DATE.exec(text))) {
    // A two-digit year more than 50 years ahead means the most recent such year in the past.
    const nowYear = now.getUTCFullYear();
    let year = nowYear - (nowYear % 100) + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    parts = [m[1]!, m[2]!, year, m[4]!, m[5]!, m[6]!];
  } else if ((m = ASCTIME_DATE.exec(text))) {
    parts = [m[2]!.trim(), m[1]!, Number(m[6]), m[3]!, m[4]!, m[5]!];
  } else {
    return undefined;
  }
  const [day, month, year, hh, mm, ss] = parts;
  const fields = [year, MONTHS.indexOf(month), Number(day), Number(hh), Number(mm), Number(ss)] as const;
  const date = new Date(Date.UTC(...fields));
  // Date.UTC rolls "31 Feb" or "25:00:00" over into another date; such a value is malformed.
  const back = [
    date.getUTCFullYear(),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  return back.every((v, i) => v === fields[i]) ? date.getTime() : undefined;
}

// ---------------------------------------------------------------------------------------------
// Retry schedule

/** Sends of one delivery in all, the first included: 1 send + 9 retries before the dead letters. */
export const DELIVERY_MAX_ATTEMPTS = 10;
export const DELIVERY_RETRY_BASE_MS = 30_000;
export const DELIVERY_RETRY_STEP_CAP_MS = 2 * 3600_000;

export interface RetryScheduleOptions {
  /** Sends in all, the first included. */
  maxAttempts?: number;
  /** Nominal delay before the first retry; it doubles on each later one. */
  baseMs?: number;
  /** No single step waits longer than this (before jitter). */
  stepCapMs?: number;
}

export interface RetrySchedule {
  readonly maxAttempts: number;
  /** Retries there are: attempts 1 … retries (attempt 1 = the first retry). */
  readonly retries: number;
  /** The jittered delay before retry `attempt`; `random` returns values in [0, 1). */
  delayForAttempt(attempt: number, random?: () => number): number;
  /** The bounds delayForAttempt draws from, both inclusive. */
  boundsForAttempt(attempt: number): { minMs: number; maxMs: number };
  /** The delay to wait before retry `attempt`: the backoff, or the peer's Retry-After when longer. */
  nextDelay(attempt: number, retryAfterMs?: number, random?: () => number): number;
}

/**
 * Exponential backoff with "equal" jitter: the delay for a step of nominal length d is drawn from
 * [d/2, d). Chosen over full jitter ([0, d)) because the floor is what guarantees the spread that
 * decisions.md §6 asks for (at least one hour over the retries) — with full jitter every retry
 * could, in the worst case, land at once. Half a step of randomness is still plenty to keep a
 * server that comes back from receiving every queued delivery in the same second; and because
 * the step doubles, below the cap retry n+1 never comes sooner after its failure than retry n did.
 *
 * With the defaults the nominal steps are 30 s, 1, 2, 4, 8, 16, 32, 64 min and 2 h (capped):
 * about 4 h 8 min over 9 retries, never less than half of that.
 */
export function retrySchedule(options: RetryScheduleOptions = {}): RetrySchedule {
  const {
    maxAttempts = DELIVERY_MAX_ATTEMPTS,
    baseMs = DELIVERY_RETRY_BASE_MS,
    stepCapMs = DELIVERY_RETRY_STEP_CAP_MS,
  } = options;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be ≥ 1');
  if (!(baseMs > 0) || !(stepCapMs >= baseMs)) throw new RangeError('need 0 < baseMs ≤ stepCapMs');

  function boundsForAttempt(attempt: number) {
    if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`bad retry attempt ${attempt}`);
    // Capping the exponent first keeps 2 ** n finite for absurd attempt numbers.
    const nominal = Math.min(stepCapMs, baseMs * 2 ** Math.min(attempt - 1, 52));
    return { minMs: Math.ceil(nominal / 2), maxMs: nominal };
  }
  function delayForAttempt(attempt: number, random: () => number = Math.random) {
    const { minMs, maxMs } = boundsForAttempt(attempt);
    const r = Math.min(Math.max(random(), 0), 1);
    return Math.min(maxMs, minMs + Math.floor(r * (maxMs - minMs)));
  }
  return {
    maxAttempts,
    retries: maxAttempts - 1,
    boundsForAttempt,
    delayForAttempt,
    nextDelay(attempt, retryAfterMs, random = Math.random) {
      const backoff = delayForAttempt(attempt, random);
      if (retryAfterMs === undefined || !(retryAfterMs >= 0)) return backoff;
      return Math.max(backoff, Math.min(Math.ceil(retryAfterMs), RETRY_AFTER_CAP_MS));
    },
  };
}

const defaults = retrySchedule();

/** The jittered backoff before retry `attempt` (1 = the first retry) on the default schedule. */
export function delayForAttempt(attempt: number, random: () => number = Math.random): number {
  return defaults.delayForAttempt(attempt, random);
}

/** max(backoff, Retry-After) before retry `attempt` on the default schedule. */
export function nextDelay(
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  return defaults.nextDelay(attempt, retryAfterMs, random);
}
