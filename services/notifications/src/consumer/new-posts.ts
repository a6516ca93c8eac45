/**
 * Who hears about a new post (behaviour-notes §6.2 `new_post`), as a digest: at most one pending
 * "new posts" notification per feed, renewed only after it was read and 12 h have passed.
 * - A post addressed to a group: the group's members (the reference read a missing field and
 *   told nobody).
 * - Any other post: the owners of the people-circles (type `Circle`, e.g. Following) the author
 *   is in, if they may read the post. The reference also counted the Blocked and Muted system
 *   circles, nudging people about authors they had blocked; those are type `System` here, and
 *   the consumer drops blocked and muted actors anyway.
 */
import type { Runtime } from '@agora/common';
import { isLocalUser, mayRead } from './audience';

export const DIGEST_COOLDOWN_MS = 12 * 60 * 60_000;

/** More owners than this are not told about one post (a guard against runaway fan-out). */
const MAX_RECIPIENTS = 5000;

export interface PostInfo {
  id: string;
  actorId: string;
  to: string;
}

/** Local owners of circles the author is in who may read the post. */
export async function feedRecipients(rt: Runtime, post: PostInfo): Promise<string[]> {
  const domain = rt.config.DOMAIN;
  const circles = await rt.repos.models.Circle.find(
    { 'members.id': post.actorId, type: 'Circle', deletedAt: null },
    { _id: 0, actorId: 1 },
  )
    .limit(MAX_RECIPIENTS)
    .lean();
  const owners = [...new Set(circles.map((c) => c.actorId))].filter(
    (id) => id !== post.actorId && isLocalUser(id, domain),
  );
  const addressed = { to: post.to, actorId: post.actorId, deletedAt: null };
  const out: string[] = [];
  for (const id of owners) if (await mayRead(rt, addressed, id)) out.push(id);
  return out;
}

/** A local group's members (its members circle), with its name for the summary. */
export async function groupAudience(
  rt: Runtime,
  groupId: string,
): Promise<{ name: string; members: string[] } | null> {
  const { Group, Circle } = rt.repos.models;
  const group = await Group.findOne({ id: groupId, deletedAt: null }, { _id: 0, name: 1, circles: 1 }).lean<{
    name?: string;
    circles?: { members?: string };
  }>();
  const circleId = group?.circles?.members;
  if (!group || !circleId) return null;
  const circle = await Circle.findOne({ id: circleId }, { _id: 0, members: 1 }).lean();
  const domain = rt.config.DOMAIN;
  const members = (circle?.members ?? []).map((m) => m.id).filter((id) => isLocalUser(id, domain));
  return { name: group.name ?? 'your group', members: members.slice(0, MAX_RECIPIENTS) };
}
