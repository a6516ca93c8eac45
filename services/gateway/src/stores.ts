/**
 * Where the edge keeps shared state: Redis when REDIS_URL is set (every gateway replica shares
 * counts and the dedupe window), memory otherwise (standalone, one process).
 */
import type { RedisClientType } from 'redis';

export interface HoldStore {
  /** Takes the hold if free; false when somebody holds it already. */
  acquire(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

export function memoryHoldStore(): HoldStore {
  const holds = new Map<string, number>();
  return {
    acquire(key, ttlMs) {
      const now = Date.now();
      const until = holds.get(key);
      if (until !== undefined && until > now) return Promise.resolve(false);
      holds.set(key, now + ttlMs);
      if (holds.size > 10_000) for (const [k, t] of holds) if (t <= now) holds.delete(k);
      return Promise.resolve(true);
    },
    release(key) {
      holds.delete(key);
      return Promise.resolve();
    },
  };
}

export function redisHoldStore(client: RedisClientType, prefix: string): HoldStore {
  return {
    async acquire(key, ttlMs) {
      return (
        (await client.set(`${prefix}${key}`, '1', {
          condition: 'NX',
          expiration: { type: 'PX', value: ttlMs },
        })) === 'OK'
      );
    },
    async release(key) {
      await client.del(`${prefix}${key}`);
    },
  };
}

/** Uses `primary` and falls back to `fallback` while it fails (Redis away → per-process memory). */
export function withFallback(primary: HoldStore, fallback: HoldStore): HoldStore {
  return {
    acquire: (key, ttl) => primary.acquire(key, ttl).catch(() => fallback.acquire(key, ttl)),
    release: (key) => primary.release(key).catch(() => fallback.release(key)),
  };
}
