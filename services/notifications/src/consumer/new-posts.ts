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
import type { NotificationsContext } from '../context';
import { isLocalUser, mayRead } from './audience';

export const DIGEST_COOLDOWN_MS = 12 * 60 * 60_000;

/** More owners than this are not told about one post (a guard against runaway fan-out). */
const MAX_RECIPIENTS = 5000;

export interface PostInfo {
  id: string;
  actorId: string;
  to: string;
  /** Its fan-out circles, stored on the post from the author's memberships as the post read them. */
  circles: string[];
}

/**
 * Local owners of circles the author is in who may read the post. The candidates are the post's
 * fan-out circles (read with the post: the author's membership index is not read again); each
 * circle's own members confirm the author is still in it.
 */
export async function feedRecipients(ctx: NotificationsContext, post: PostInfo): Promise<string[]> {
  const domain = ctx.config.DOMAIN;
  const owners = await ctx.stores.circles.ownersOfCirclesHolding(post.actorId, post.circles, MAX_RECIPIENTS);
  const readers = owners.filter((id) => id !== post.actorId && isLocalUser(id, domain));
  const addressed = { to: post.to, actorId: post.actorId, deletedAt: null };
  const out: string[] = [];
  for (const id of readers) if (await mayRead(ctx, addressed, id)) out.push(id);
  return out;
}

/** A local group's members (its members circle), with its name for the summary. */
export async function groupAudience(
  ctx: NotificationsContext,
  groupId: string,
): Promise<{ name: string; members: string[] } | null> {
  const group = await ctx.stores.groups.liveById(groupId);
  const circleId = (group?.circles as { members?: string } | null | undefined)?.members;
  if (!group || !circleId) return null;
  const memberIds = await ctx.stores.circles.memberIds(circleId);
  const domain = ctx.config.DOMAIN;
  const members = memberIds.filter((id) => isLocalUser(id, domain));
  return { name: group.name ?? 'your group', members: members.slice(0, MAX_RECIPIENTS) };
}
