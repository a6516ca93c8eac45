/** GET /admin/system: database, object counts, disk and process figures (all best effort). */
import { statfs } from 'node:fs/promises';
import type { AdminContext } from '../context';

const kb = (bytes: unknown) => (typeof bytes === 'number' ? Math.round(bytes / 1024) : undefined);

async function diskStats(dir: string) {
  try {
    const s = await statfs(dir);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    const used = total - free;
    return {
      path: dir,
      totalKb: kb(total),
      freeKb: kb(free),
      usedKb: kb(used),
      usedPct: total > 0 ? Math.round((used / total) * 1000) / 10 : 0,
    };
  } catch {
    return null;
  }
}

async function counts(ctx: AdminContext) {
  const r = ctx.stores;
  // Counts over whole collections: an admin page, never a hot path.
  const [users, posts, groups, circles, pages, replies, reacts, activities, openFlags, activeInvites] =
    await Promise.all([
      r.users.count(),
      r.posts.countLive(),
      r.groups.countLive(),
      r.circles.countLive(),
      r.pages.countLive(),
      r.replies.countLive(),
      r.reacts.countAll(),
      r.activities.count(),
      r.flags.countOpen(),
      r.invites.countActive(),
    ]);
  return { users, posts, groups, circles, pages, replies, reacts, activities, openFlags, activeInvites };
}

export async function systemStats(ctx: AdminContext) {
  const [db, c, disk] = await Promise.all([ctx.databaseStats(), counts(ctx), diskStats(ctx.config.DATA_DIR)]);
  return {
    db,
    counts: c,
    disk,
    process: {
      pid: process.pid,
      uptime: Math.round(process.uptime()),
      memory: process.memoryUsage(),
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    },
  };
}
