/**
 * The handles the mentions planner could not resolve (mentions.ts), remembered for a while so the
 * next post that names one does not ask its server's WebFinger again on every event: each for
 * MISS_TTL_MS, at most MAX_MISSES at once (the oldest forgotten first). Per process: each
 * federation replica keeps its own, one per runtime (keyed by its Federation client, so servers
 * sharing a process, as in the tests, keep theirs apart).
 */
export const MISS_TTL_MS = 15 * 60_000;
export const MAX_MISSES = 10_000;

export interface MissCache {
  /** Whether `handle` failed to resolve less than the TTL ago. */
  has(handle: string, now?: number): boolean;
  /** Remembers that `handle` did not resolve. */
  add(handle: string, now?: number): void;
}

export function missCache(ttlMs = MISS_TTL_MS, max = MAX_MISSES): MissCache {
  // Insertion order is age order: a handle added again moves to the end.
  const until = new Map<string, number>();
  return {
    has(handle, now = Date.now()) {
      const key = handle.toLowerCase();
      const expires = until.get(key);
      if (expires === undefined) return false;
      if (expires > now) return true;
      until.delete(key);
      return false;
    },
    add(handle, now = Date.now()) {
      const key = handle.toLowerCase();
      until.delete(key);
      until.set(key, now + ttlMs);
      while (until.size > max) {
        const oldest = until.keys().next().value;
        if (oldest === undefined) break;
        until.delete(oldest);
      }
    },
  };
}

const caches = new WeakMap<object, MissCache>();

/** The cache of the runtime that `owner` (its Federation client) belongs to. */
export function missesOf(owner: object): MissCache {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = missCache()));
  return cache;
}
