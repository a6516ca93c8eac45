/**
 * The garbage-collection worker (spec 1: nightly): hard-deletes content soft-deleted longer ago
 * than the `gcRetentionDays` setting, with the timeline rows and reactions that pointed at it.
 * FerretDB has no TTL indexes (docs/adr/0001-ferretdb.md), so expiry is this worker's job.
 * Each run is idempotent; several replicas running it at once only repeat deletes.
 */
import type { Runtime } from '@agora/common';

export interface GcReport {
  cutoff: Date;
  removed: Record<string, number>;
}

const DAY_MS = 86_400_000;

export async function runGc(rt: Runtime, now = new Date()): Promise<GcReport> {
  const days = Number(await rt.repos.settings.get<number>('gcRetentionDays')) || 30;
  const cutoff = new Date(now.getTime() - Math.max(1, days) * DAY_MS);
  const m = rt.repos.models;
  const removed: Record<string, number> = {};
  const old = { deletedAt: { $ne: null, $lt: cutoff } };

  const posts = await m.Post.find(old, { id: 1 }).lean();
  const postIds = posts.map((p) => p.id);
  if (postIds.length) {
    removed.timeline = (await m.TimelineEntry.deleteMany({ postId: { $in: postIds } })).deletedCount;
    removed.reacts = (await m.React.deleteMany({ target: { $in: postIds } })).deletedCount;
  }
  for (const [name, model] of Object.entries({
    posts: m.Post,
    replies: m.Reply,
    pages: m.Page,
    bookmarks: m.Bookmark,
    groups: m.Group,
    circles: m.Circle,
  })) {
    removed[name] = (await (model as typeof m.Post).deleteMany(old)).deletedCount;
  }
  return { cutoff, removed };
}

/** First run a minute after start, then every 24 hours. */
export function startGc(
  rt: Runtime,
  opts: { firstDelayMs?: number; intervalMs?: number } = {},
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = runGc(rt)
      .then((r) => rt.logger.info({ gc: r }, 'garbage collection done'))
      .catch((err: Error) => rt.logger.warn({ err: err.message }, 'garbage collection failed'))
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
