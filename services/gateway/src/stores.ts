/**
 * Where the edge keeps shared state: Redis when REDIS_URL is set (every gateway replica shares
 * counts and the dedupe window), memory otherwise (standalone, one process).
 */
import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '@agora/common';

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

/** Closes gracefully when connected, at once otherwise. */
export async function closeRedis(client: RedisClientType): Promise<void> {
  if (client.isReady) await client.close();
  else if (client.isOpen) client.destroy();
}

export async function connectRedis(url: string, logger: Logger): Promise<RedisClientType> {
  const client: RedisClientType = createClient({
    url,
    // Fail fast while Redis is away (the limiters fall back to memory); keep reconnecting.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (n: number) => Math.min(5000, 100 * 2 ** Math.min(n, 6)),
    },
  });
  let warned = false;
  client.on('error', (err: Error) => {
    if (!warned) logger.warn({ err: err.message }, 'redis error (edge falls back to per-process memory)');
    warned = true;
  });
  client.on('ready', () => {
    warned = false;
  });
  // Wait briefly for the first connection; past that the client keeps trying in the
  // background and the limiters run on their memory fallback meanwhile.
  const connecting = client.connect().then(
    () => true,
    (err: Error) => (logger.warn({ err: err.message }, 'redis connection failed'), false),
  );
  const ready = await Promise.race([
    connecting,
    new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref()),
  ]);
  if (!ready) logger.warn('redis not reachable at start; using per-process memory until it is');
  return client;
}

/** Uses `primary` and falls back to `fallback` while it fails (Redis away → per-process memory). */
export function withFallback(primary: HoldStore, fallback: HoldStore): HoldStore {
  return {
    acquire: (key, ttl) => primary.acquire(key, ttl).catch(() => fallback.acquire(key, ttl)),
    release: (key) => primary.release(key).catch(() => fallback.release(key)),
  };
}
