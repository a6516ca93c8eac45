/**
 * The posts of a timeline page, by id, through the stamped post cache: after a write to a
 * circle, the page is computed again but most of its posts have not changed, so only the new
 * or changed ones are read (each one `_id` read).
 */
import { STAMPS } from '@agora/common/cache';
import type { PostRecord } from '@agora/common/db';
import type { SocialContext } from '../context';
import { cachesOf } from './cache';

/** The live (not deleted) posts among `ids`, by id. */
export async function postsById(ctx: SocialContext, ids: string[]): Promise<Map<string, PostRecord>> {
  if (!ids.length) return new Map();
  const cache = cachesOf(ctx).posts;
  const stamps = cache.enabled ? await ctx.stamps.read(ids.map(STAMPS.post)) : null;
  if (!stamps) return ctx.stores.posts.liveByIds(ids);
  const keyOf = new Map(ids.map((id, i) => [id, `${id}#${stamps[i]}`]));
  const out = new Map<string, PostRecord>();
  const missing: string[] = [];
  for (const id of ids) {
    const hit = cache.get(keyOf.get(id)!);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  for (const p of (await ctx.stores.posts.liveByIds(missing)).values()) {
    cache.set(keyOf.get(p.id)!, p);
    out.set(p.id, p);
  }
  return out;
}
