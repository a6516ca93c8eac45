/**
 * The files part of the nightly GC (issue 12): uploads never attached to anything are deleted a
 * day after upload, and the bytes of deleted files (deleted directly, or following their deleted
 * parent) are removed from storage before their records go. Batches keep each pass bounded.
 */
import type { SocialContext } from '../context';
import { removeStored } from './engine';

export const ORPHAN_AGE_MS = 24 * 3600 * 1000;
const BATCH = 500;

export async function runFileGc(
  ctx: SocialContext,
  now = new Date(),
): Promise<{ orphans: number; files: number }> {
  let orphans = 0;
  for (const f of await ctx.stores.files.orphansBefore(new Date(now.getTime() - ORPHAN_AGE_MS), BATCH))
    if (await ctx.stores.files.markDeleted(f.id)) orphans++;
  let files = 0;
  for (;;) {
    const batch = await ctx.stores.files.deletedBatch(BATCH);
    if (!batch.length) break;
    for (const f of batch) {
      try {
        await removeStored(ctx.storage, f);
        await ctx.stores.files.purge(f.id);
        files++;
      } catch (err) {
        ctx.logger.warn(
          { err: (err as Error).message, file: f.id },
          'file bytes not removed; next run retries',
        );
        return { orphans, files };
      }
    }
    if (batch.length < BATCH) break;
  }
  return { orphans, files };
}
