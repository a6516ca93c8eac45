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
  /** The current stamps of these keys (0 when never bumped); null when the store cannot answer. */
  read(keys: string[]): Promise<number[] | null>;
  /** Moves these stamps on. Never throws: a failed bump is logged (caches then age out by TTL). */
  bump(keys: string[]): Promise<void>;
  /**
   * Makes every stamp read differ from any value read before (a restore replaced the whole
   * database). An epoch counter is folded into every value `read` returns, so no reader changes.
   */
  bumpAll(): Promise<void>;
}

/** Stamps are cache-key parts compared for equality: `epoch * 2^32 + stamp` moves all of them at once. */
const EPOCH_STEP = 2 ** 32;
const EPOCH_KEY = '*epoch';

export function memoryStampStore(): StampStore {
  const stamps = new Map<string, number>();
  return {
    read: (keys) => {
      const epoch = (stamps.get(EPOCH_KEY) ?? 0) * EPOCH_STEP;
      return Promise.resolve(keys.map((k) => epoch + (stamps.get(k) ?? 0)));
    },
    bump(keys) {
      for (const k of new Set(keys)) stamps.set(k, (stamps.get(k) ?? 0) + 1);
      return Promise.resolve();
    },
    bumpAll() {
      stamps.set(EPOCH_KEY, (stamps.get(EPOCH_KEY) ?? 0) + 1);
      return Promise.resolve();
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
