/**
 * Pages read from a post list (PostsStore's list reads): the live posts of its entries come in
 * batches, newest first; these take a page of them, or rank an author's by reactions.
 */
import { newestFirst } from '../lists/cursor';
import type { PageRequest } from './object-collection';
import type { PostRecord } from './post-lists';

/** The `req` page of the posts `batches` yields that `keep` accepts, in order; stops once full. */
export async function takePage(
  batches: AsyncIterable<PostRecord[]>,
  req: PageRequest,
  keep: (p: PostRecord) => boolean = () => true,
): Promise<PostRecord[]> {
  const items: PostRecord[] = [];
  if (req.limit <= 0) return items;
  let skipped = 0;
  for await (const batch of batches)
    for (const p of batch) {
      if (!keep(p)) continue;
      if (skipped < req.skip) skipped++;
      else if (items.push(p) >= req.limit) return items;
    }
  return items;
}

/**
 * The ids of the `req` page of the posts `visible` accepts, by reactions, most first, then
 * newest, with how many matched; `batches` is read newest first up to `since`. Only each match's
 * id, reaction count and time are kept while reading.
 */
export async function topIds(
  batches: AsyncIterable<PostRecord[]>,
  visible: (p: PostRecord) => boolean,
  req: PageRequest & { since?: Date },
): Promise<{ total: number; ids: string[] }> {
  const matched: Array<{ id: string; reacts: number; at: number }> = [];
  read: for await (const batch of batches) {
    for (const p of batch) {
      const at = p.publishedAt ? new Date(p.publishedAt).getTime() : 0;
      if (req.since && p.publishedAt && at < req.since.getTime()) break read;
      if (visible(p)) matched.push({ id: p.id, reacts: Number(p.reactCount ?? 0), at });
    }
  }
  matched.sort((a, b) => b.reacts - a.reacts || newestFirst(a, b));
  return { total: matched.length, ids: matched.slice(req.skip, req.skip + req.limit).map((m) => m.id) };
}
