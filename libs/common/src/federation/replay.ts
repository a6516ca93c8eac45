/**
 * Remembers verified signatures for as long as their Date keeps them acceptable, so a captured
 * request cannot be played again (decisions.md §6). Redis when REDIS_URL is set, so every inbox
 * replica sees one set; memory otherwise (standalone: one process).
 */
import type { RedisClientType } from 'redis';
import { ServiceUnavailable } from '../errors';

export interface ReplayGuard {
  /** True when this hash was seen within its time to live; otherwise records it and answers false. */
  seen(signatureHash: string, ttlMs: number): Promise<boolean>;
}

const SWEEP_EVERY_MS = 60_000;

export function memoryReplayGuard({ now = Date.now }: { now?: () => number } = {}): ReplayGuard & {
  readonly size: number;
} {
  const until = new Map<string, number>();
  let lastSweep = now();
  return {
    seen(hash, ttlMs) {
      const t = now();
      if (t - lastSweep >= SWEEP_EVERY_MS) {
        for (const [h, u] of until) if (u <= t) until.delete(h);
        lastSweep = t;
      }
      const expiry = until.get(hash);
      if (expiry !== undefined && expiry > t) return Promise.resolve(true);
      until.set(hash, t + ttlMs);
      return Promise.resolve(false);
    },
    get size() {
      return until.size;
    },
  };
}

/**
 * SET NX PX is one atomic step, so two replicas receiving the same signature at once cannot both
 * accept it. When Redis cannot answer the request fails with 503 rather than being let through
 * unchecked; senders retry that.
 */
export function redisReplayGuard(client: RedisClientType, prefix: string): ReplayGuard {
  return {
    async seen(hash, ttlMs) {
      try {
        const set = await client.set(`${prefix}sig:${hash}`, '1', {
          condition: 'NX',
          expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
        });
        return set === null;
      } catch (err) {
        throw new ServiceUnavailable('Replay protection unavailable', { cause: err });
      }
    },
  };
}
