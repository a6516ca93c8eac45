/**
 * Keeps the denormalised author copies (`actor.name`, `actor.icon` on content, member entries
 * in circles) in step when a user changes their name or icon. Consumes `user.updated`; the
 * update is idempotent (it sets values), so a redelivered event does no harm.
 */
import type { BusMessage, Runtime } from '@agora/common';

interface UserUpdated {
  userId: string;
  name: string | null;
  icon: string | null;
}

export const USER_COPIES_QUEUE = 'social.user-copies';

export async function refreshUserCopies(rt: Runtime, msg: BusMessage<UserUpdated>): Promise<void> {
  const { userId, name, icon } = msg.payload;
  if (typeof userId !== 'string' || !userId) return;
  const set: Record<string, string> = {};
  if (typeof name === 'string') set['actor.name'] = name;
  if (typeof icon === 'string') set['actor.icon'] = icon;
  if (!Object.keys(set).length) return;
  const m = rt.repos.models;
  await Promise.all(
    [m.Post, m.Reply, m.React, m.Group, m.Page, m.Bookmark].map((model) =>
      (model as typeof m.Post).updateMany({ actorId: userId }, { $set: set }),
    ),
  );
  // Circle member entries: rewrite each holding circle's array element by element (FerretDB
  // 1.24 has no positional `$` updates we can rely on).
  const circles = await m.Circle.find({ 'members.id': userId }, { id: 1 }).lean();
  for (const { id } of circles) {
    // Optimistic: write only if nobody changed the membership meanwhile (memberCount and
    // updatedAt unchanged), else re-read and try again, so a concurrent Add is never lost.
    for (let attempt = 0; attempt < 5; attempt++) {
      const c = await m.Circle.findOne({ id }, { members: 1, memberCount: 1, updatedAt: 1 }).lean();
      if (!c) break;
      const members = (c.members ?? []).map((mem) =>
        mem.id === userId
          ? {
              ...mem,
              ...(typeof name === 'string' ? { name } : {}),
              ...(typeof icon === 'string' ? { icon } : {}),
            }
          : mem,
      );
      const res = await m.Circle.collection.updateOne(
        { id, memberCount: c.memberCount, updatedAt: c.updatedAt },
        { $set: { members } },
      );
      if (res.matchedCount === 1) break;
    }
  }
}

export async function startUserCopies(rt: Runtime): Promise<void> {
  await rt.bus.subscribe<UserUpdated>(USER_COPIES_QUEUE, ['user.updated'], (msg) =>
    refreshUserCopies(rt, msg),
  );
}
