/**
 * Stamps: shared counters that say when cached views went stale. A writer bumps the stamps of
 * what it changed (a circle, a user); a reader puts the stamps it read into its cache key, so an
 * entry built before a change is never found again. Redis holds them when REDIS_URL is set (every
 * replica of every service sees one set); memory otherwise (standalone: one process).
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../logger';

/** The stamp names, in one place. */
export const STAMPS = {
  /** A circle: its document, its members and its timeline rows. */
  circle: (id: string) => `c:${id}`,
  /** A viewer: their memberships (audiences), blocks, mutes and own interactions. */
  viewer: (id: string) => `u:${id}`,
  /** A post: its content, audience, counters and deletion. */
  post: (id: string) => `p:${id}`,
  /** Every setting (writes are rare; each process's settings cache checks it on every read). */
  settings: 's:settings',
  /** The blocked domains (an admin's block or unblock; federation checks it on every exchange). */
  blockedDomains: 's:blocked-domains',
  /** The suspended local accounts (an admin's soft delete or restore; every read path checks it). */
  suspended: 's:suspended',
};

export interface StampStore {
  /**
   * The current stamps of these keys (0 when never bumped; in memory, a key forgotten past the
   * store's bound reads a floor instead); null when the store cannot answer.
   */
  read(keys: string[]): Promise<number[] | null>;
  /** Moves these stamps on. Never throws: a failed bump is logged (caches then age out by TTL). */
  bump(keys: string[]): Promise<void>;
  /**
   * Makes every stamp read differ from any value read before (a restore replaced the whole
   * database). Redis folds an epoch counter into every value `read` returns, memory raises every
   * floor past its clock; no reader changes.
   */
  bumpAll(): Promise<void>;
}

/** Stamps are cache-key parts compared for equality: `epoch * 2^32 + stamp` moves all of them at once. */
const EPOCH_STEP = 2 ** 32;
const EPOCH_KEY = '*epoch';

/** Keys a memory stamp store remembers by default (about 150 bytes each): see `memoryStampStore`. */
const MEMORY_STAMP_KEYS = 20_000;
/** Buckets of the floors a forgotten key reads: a forgotten key moves the stamps of 1/BUCKETS of the rest. */
const FLOOR_BUCKETS = 1024;

function bucketOf(key: string): number {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FLOOR_BUCKETS;
}

/**
 * Stamps in this process's memory (standalone: one process), for at most `maxKeys` keys: every
 * new post bumps its own stamp, so a store that kept every key would grow with every post the
 * process ever handled (docs/performance.md, issue 22).
 *
 * A bump sets the key to the next value of one clock, larger than any value read before. Past
 * `maxKeys`, the least recently bumped key is forgotten and its bucket's floor raised to its
 * value; a key the store does not hold reads its bucket's floor. So, for every key, the values
 * read never go back and every bump moves them past all earlier ones: an entry cached under a
 * stamp is never found after a later bump, whether or not the key was forgotten meanwhile (a
 * forgotten key costs at most one extra miss to the cold keys of its bucket). `bumpAll` raises
 * every floor past the clock and forgets every key.
 */
export function memoryStampStore({ maxKeys = MEMORY_STAMP_KEYS } = {}): StampStore & {
  readonly size: number;
} {
  // Insertion order is bump order: a bump deletes and sets again, so the first key is the oldest.
  const stamps = new Map<string, number>();
  const floors = new Float64Array(FLOOR_BUCKETS);
  let clock = 0;
  const value = (k: string) => stamps.get(k) ?? floors[bucketOf(k)]!;
  return {
    read: (keys) => Promise.resolve(keys.map(value)),
    bump(keys) {
      for (const k of new Set(keys)) {
        stamps.delete(k);
        stamps.set(k, ++clock);
      }
      for (const [oldest, v] of stamps) {
        if (stamps.size <= maxKeys) break;
        stamps.delete(oldest);
        const b = bucketOf(oldest);
        floors[b] = Math.max(floors[b]!, v);
      }
      return Promise.resolve();
    },
    bumpAll() {
      floors.fill(++clock);
      stamps.clear();
      return Promise.resolve();
    },
    get size() {
      return stamps.size;
    },
  };
}

/** Stamps live 7 days after their last bump: an entry older than that has aged out anyway. */
const STAMP_TTL_SECONDS = 7 * 24 * 3600;

export function redisStampStore(client: RedisClientType, prefix: string, logger: Logger): StampStore {
  const key = (k: string) => `${prefix}stamp:${k}`;
  return {
    async read(keys) {
      if (!keys.length) return [];
      try {
        const [epoch, ...values] = await client.mGet([key(EPOCH_KEY), ...keys.map(key)]);
        const base = epoch ? Number(epoch) * EPOCH_STEP : 0;
        return values.map((v) => base + (v ? Number(v) : 0));
      } catch {
        return null;
      }
    },
    async bump(keys) {
      const unique = [...new Set(keys)];
      if (!unique.length) return;
      try {
        // A MULTI sent while the client reconnects waits for the reconnect attempts (seconds)
        // instead of failing at once: fail fast, as reads do.
        if (!client.isReady) throw new Error('redis not connected');
        const multi = client.multi();
        for (const k of unique) multi.incr(key(k)).expire(key(k), STAMP_TTL_SECONDS);
        await multi.exec();
      } catch (err) {
        logger.warn(
          { err: (err as Error).message, keys: unique },
          'stamp bump failed; caches age out by TTL',
        );
      }
    },
    async bumpAll() {
      try {
        // No expiry: the epoch must never fall back to an earlier value.
        await client.incr(key(EPOCH_KEY));
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'stamp epoch bump failed; caches age out by TTL');
      }
    },
  };
}
