/** GET /admin/system: database, object counts, disk and process figures (all best effort). */
import { statfs } from 'node:fs/promises';
import type { Runtime } from '@agora/common';

const kb = (bytes: unknown) => (typeof bytes === 'number' ? Math.round(bytes / 1024) : undefined);

async function databaseStats(rt: Runtime) {
  const db = rt.db.conn.db;
  if (!db) return { name: rt.db.conn.name };
  try {
    const s = (await db.stats()) as Record<string, unknown>;
    return {
      name: db.databaseName,
      collections: s.collections,
      objects: s.objects,
      dataKb: kb(s.dataSize),
      storageKb: kb(s.storageSize),
      indexKb: kb(s.indexSize),
      totalKb: kb(s.totalSize),
    };
  } catch {
    // dbStats is not available on every MongoDB-compatible backend: fall back to what always is.
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    return { name: db.databaseName, collections: collections.length };
  }
}

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

async function counts(rt: Runtime) {
  const m = rt.repos.models;
  const live = { deletedAt: null };
  const [users, posts, groups, circles, pages, replies, reacts, activities, openFlags] = await Promise.all([
    m.User.countDocuments(live),
    m.Post.countDocuments(live),
    m.Group.countDocuments(live),
    m.Circle.countDocuments(live),
    m.Page.countDocuments(live),
    m.Reply.countDocuments(live),
    m.React.countDocuments({}),
    m.Activity.countDocuments({}),
    m.Flag.countDocuments({ status: 'open' }),
  ]);
  const activeInvites = await m.Invite.countDocuments({ active: true, deletedAt: null });
  return { users, posts, groups, circles, pages, replies, reacts, activities, openFlags, activeInvites };
}

export async function systemStats(rt: Runtime) {
  const [db, c, disk] = await Promise.all([databaseStats(rt), counts(rt), diskStats(rt.config.DATA_DIR)]);
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
