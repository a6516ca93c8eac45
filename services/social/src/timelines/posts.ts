/**
 * The posts of a timeline page, by id, through the stamped post cache: after a write to a
 * circle, the page is computed again but most of its posts have not changed, so only the new
 * or changed ones are read. A few misses are read one by one: FerretDB pushes an equality down
 * to its storage but not `$in` (which makes it decode the whole collection); on MongoDB both
 * are index lookups.
 */
import { STAMPS, type PostDoc, type Runtime } from '@agora/common';
import { cachesOf } from './cache';

const ONE_BY_ONE = 8;

async function load(rt: Runtime, ids: string[]): Promise<PostDoc[]> {
  const { Post } = rt.repos.models;
  if (ids.length <= ONE_BY_ONE) {
    const found = await Promise.all(ids.map((id) => Post.findOne({ id, deletedAt: null }).lean<PostDoc>()));
    return found.filter((p): p is PostDoc => !!p);
  }
  return Post.find({ id: { $in: ids }, deletedAt: null }).lean<PostDoc[]>();
}

/** The live (not deleted) posts among `ids`, by id. */
export async function postsById(rt: Runtime, ids: string[]): Promise<Map<string, PostDoc>> {
  if (!ids.length) return new Map();
  const cache = cachesOf(rt).posts;
  const stamps = cache.enabled ? await rt.stamps.read(ids.map(STAMPS.post)) : null;
  if (!stamps) return new Map((await load(rt, ids)).map((p) => [p.id, p]));
  const keyOf = new Map(ids.map((id, i) => [id, `${id}#${stamps[i]}`]));
  const out = new Map<string, PostDoc>();
  const missing: string[] = [];
  for (const id of ids) {
    const hit = cache.get(keyOf.get(id)!);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  for (const p of await load(rt, missing)) {
    cache.set(keyOf.get(p.id)!, p);
    out.set(p.id, p);
  }
  return out;
}
