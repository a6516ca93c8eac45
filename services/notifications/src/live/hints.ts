/**
 * Which of this process's streams hear about an event, and what they hear (ADR 0020). A hint
 * names an id and where it belongs, never content, and goes only to a user who may read the
 * object now (the audience code the notifications use: `mayRead`) and has not blocked or muted
 * its author (as for notifications: `silenced`); the client then reads it
 * through the ordinary routes, which check the audience again.
 */
import type { EventPayload } from '@agora/common/messaging';
import type { NotificationsContext } from '../context';
import { mayRead } from '../consumer/audience';
import { loadObject } from '../consumer/objects';
import { silencedBy } from '../consumer/silenced';
import type { LiveHub } from './hub';

/** More circles than this on one post are not looked at (as the new-posts digest). */
const MAX_CIRCLES = 5000;

/**
 * A new post: its author's followers, and everyone whose circle holds the author, see it in
 * that circle's timeline. Each such owner with a stream here, who may read the post, is told
 * `{ circleId, postId }` for each of their circles it went to.
 */
export async function onPost(
  ctx: NotificationsContext,
  hub: LiveHub,
  p: EventPayload<'post.created'>,
): Promise<void> {
  const post = await loadObject(ctx, p.postId);
  if (!post || post.kind !== 'post' || !post.circles.length) return;
  const owners = await ctx.stores.circles.ownersOfCirclesHolding(p.actorId, post.circles, MAX_CIRCLES);
  const addressed = { to: post.to, actorId: p.actorId, deletedAt: null };
  for (const owner of owners) {
    if (owner === p.actorId || !hub.has(owner)) continue;
    if (!(await mayRead(ctx, addressed, owner))) continue;
    if (await silencedBy(ctx, owner, p.actorId)) continue;
    const circles = new Set(await ctx.stores.circles.liveIdsOwnedBy(owner));
    for (const circleId of post.circles)
      if (circles.has(circleId)) hub.send(owner, 'post', { circleId, postId: p.postId });
  }
}

/**
 * A new reply: every user with a stream here who may read its thread is told
 * `{ postId: <root>, replyId }`; the client refetches the thread if it is the one on screen.
 */
export async function onReply(
  ctx: NotificationsContext,
  hub: LiveHub,
  p: EventPayload<'reply.created'>,
): Promise<void> {
  const users = hub.users().filter((u) => u !== p.actorId);
  if (!users.length) return;
  const reply = await loadObject(ctx, p.replyId);
  if (!reply) return;
  const addressed = { to: reply.to, actorId: reply.rootActorId, deletedAt: null };
  for (const user of users)
    if ((await mayRead(ctx, addressed, user)) && !(await silencedBy(ctx, user, p.actorId)))
      hub.send(user, 'reply', { postId: reply.rootId, replyId: p.replyId });
}

/** A notification stored for a user: their badge and tab title refresh. */
export function onNotification(hub: LiveHub, p: EventPayload<'notification.created'>): void {
  hub.send(p.recipientId, 'notification', { type: p.type });
}
