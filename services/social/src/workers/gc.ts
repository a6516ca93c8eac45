/**
 * The garbage-collection worker (spec 1: nightly): hard-deletes content soft-deleted longer ago
 * than the `gcRetentionDays` setting, with the reactions that pointed at it,
 * and Idempotency-Key rows past their 24 hours.
 * The engine port has no TTL indexes (ADR 0013), so deleting expired rows is this worker's job.
 * Each run is idempotent; several replicas running it at once only repeat deletes.
 */
import type { SocialContext } from '../context';
import { runFileGc } from '../files/gc';

export interface GcReport {
  cutoff: Date;
  removed: Record<string, number>;
}

const DAY_MS = 86_400_000;

export async function runGc(ctx: SocialContext, now = new Date()): Promise<GcReport> {
  const days = Number(await ctx.stores.settings.get<number>('gcRetentionDays')) || 30;
  const cutoff = new Date(now.getTime() - Math.max(1, days) * DAY_MS);
  const r = ctx.stores;
  const removed: Record<string, number> = {};
  // Deleted posts left every list when they were deleted; their reactions go with them now.
  const posts = await r.posts.purgeDeletedBefore(cutoff);
  removed.posts = posts.length;
  if (posts.length) removed.reacts = await r.reacts.purgeForTargets(posts);
  for (const [name, store] of Object.entries({
    replies: r.replies,
    pages: r.pages,
    bookmarks: r.bookmarks,
    groups: r.groups,
    circles: r.circles,
  })) {
    removed[name] = (await store.purgeDeletedBefore(cutoff)).length;
  }
  // Idempotency keys past their 24 hours (they already read as absent; this reclaims the space).
  removed.idempotencyKeys = await ctx.stores.idempotency.purgeExpired(now);
  const swept = await runFileGc(ctx, now);
  removed.orphanFiles = swept.orphans;
  removed.files = swept.files;
  return { cutoff, removed };
}

/** First run a minute after start, then every 24 hours. */
export function startGc(
  ctx: SocialContext,
  opts: { firstDelayMs?: number; intervalMs?: number } = {},
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = runGc(ctx)
      .then((r) => ctx.logger.info({ gc: r }, 'garbage collection done'))
      .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'garbage collection failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, opts.intervalMs ?? DAY_MS);
    interval.unref();
  }, opts.firstDelayMs ?? 60_000);
  first.unref();
  return async () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
    await running;
  };
}
