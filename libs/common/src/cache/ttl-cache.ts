/**
 * A bounded in-process cache with a time limit per entry and single flight: concurrent misses
 * on one key share one computation instead of each running it.
 */
import { cacheMetrics, type CacheCounter } from '../metrics/cache';

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly counted: CacheCounter | undefined;

  /** `name`: the cache's label on `agora_cache_lookups_total` (unnamed caches are not counted). */
  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    name?: string,
  ) {
    this.counted = name && this.enabled ? cacheMetrics(name) : undefined;
  }

  get enabled(): boolean {
    return this.maxEntries > 0 && this.ttlMs > 0;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    this.counted?.(hit !== undefined && hit.until > Date.now());
    if (!hit) return undefined;
    if (hit.until <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Refresh its place: the Map's insertion order is the eviction order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** The cached value, or the one computation in flight for the key, or a new one (then stored). */
  async getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const running = this.inflight.get(key);
    if (running) return running;
    const p = compute().then(
      (value) => {
        this.inflight.delete(key);
        this.set(key, value);
        return value;
      },
      (err: unknown) => {
        this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, p);
    return p;
  }

  get size(): number {
    return this.entries.size;
  }
}
