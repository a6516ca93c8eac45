/**
 * Read caches of the social service: viewers (their circles and groups), circles and timeline
 * pages, kept in process memory and keyed by stamps (libs/common cache/stamps.ts). A write
 * bumps the stamps of what it changed, so a cached entry is never served after a change it
 * does not reflect; TIMELINE_CACHE_SECONDS bounds the life of an entry, TIMELINE_CACHE_ENTRIES
 * its number. When the stamp store cannot answer (Redis away), reads skip the cache.
 */
import type { Viewer } from '@agora/common/audience';
import { TtlCache } from '@agora/common/cache';
import type { CircleRecord, PostDoc } from '@agora/common/db';
import type { SocialContext } from '../context';

export interface SocialCaches {
  viewers: TtlCache<Viewer>;
  circles: TtlCache<CircleRecord>;
  pages: TtlCache<Record<string, unknown>>;
  /** Stored posts by id: a page computed again after a write reuses the posts that did not change. */
  posts: TtlCache<PostDoc>;
  /** A viewer's blocked and muted authors (timeline reads skip them). */
  excluded: TtlCache<Set<string>>;
}

const registry = new WeakMap<SocialContext, SocialCaches>();

export function cachesOf(ctx: SocialContext): SocialCaches {
  let caches = registry.get(ctx);
  if (!caches) {
    const ttl = ctx.config.TIMELINE_CACHE_SECONDS * 1000;
    const max = ctx.config.TIMELINE_CACHE_ENTRIES;
    caches = {
      viewers: new TtlCache(max, ttl, 'viewers'),
      circles: new TtlCache(max, ttl, 'circles'),
      pages: new TtlCache(max, ttl, 'pages'),
      posts: new TtlCache(max * 10, ttl, 'posts'),
      excluded: new TtlCache(max, ttl, 'excluded'),
    };
    registry.set(ctx, caches);
  }
  return caches;
}

/**
 * The value under `key` as of the named stamps: from the cache when it was computed under the
 * stamps read now, computed (once for concurrent callers) and kept otherwise.
 */
export async function stamped<V>(
  ctx: SocialContext,
  cache: TtlCache<V>,
  stampNames: string[],
  key: string,
  compute: () => Promise<V>,
): Promise<V> {
  if (!cache.enabled) return compute();
  const stamps = await ctx.stamps.read(stampNames);
  if (!stamps) return compute();
  return cache.getOrCompute(`${key}#${stamps.join('.')}`, compute);
}
