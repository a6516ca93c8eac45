/** Lookups of the in-process caches (cache/ttl-cache.ts): hit rate = hits / (hits + misses). */
import { family } from './registry';

export type CacheCounter = (hit: boolean) => void;

export function cacheMetrics(cache: string): CacheCounter {
  const lookups = family('counter', 'agora_cache_lookups_total', {
    help: 'Cache lookups, by cache and result (hit, miss).',
    labelNames: ['cache', 'result'],
  });
  lookups.inc({ cache, result: 'hit' }, 0);
  lookups.inc({ cache, result: 'miss' }, 0);
  return (hit) => lookups.inc({ cache, result: hit ? 'hit' : 'miss' });
}
