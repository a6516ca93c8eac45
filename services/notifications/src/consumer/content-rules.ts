/**
 * Notifications about content (behaviour-notes §6.2): replies, reactions, mentions and new
 * posts. Each rule reads the object again instead of trusting the event alone: an object deleted
 * (or a reaction withdrawn) before the event is consumed notifies nobody.
 */
import type { EventPayload } from '@agora/common/messaging';
import type { NotificationsContext } from '../context';
import type { Intent } from './create';
import { mayRead } from './audience';
import { mentionedUsers, readersAmong } from './mentions';
import { DIGEST_COOLDOWN_MS, feedRecipients, groupAudience } from './new-posts';
import { hrefOf, kindOf, loadObject, nounOf, objectTypeOf, type ObjectInfo } from './objects';

const rootHref = (ctx: NotificationsContext, obj: ObjectInfo) =>
  hrefOf(ctx.config.publicUrl, obj.rootKind, obj.rootId);

/** Mentions of local users who may read `obj`, except the author and anyone in `skip`. */
async function mentionIntents(
  ctx: NotificationsContext,
  obj: ObjectInfo,
  actorId: string,
  skip: Array<string | null | undefined>,
): Promise<Intent[]> {
  const named = mentionedUsers(obj.content, ctx.config.DOMAIN).filter(
    (id) => id !== actorId && !skip.includes(id),
  );
  const readers = await readersAmong(ctx, obj, named);
  return readers.map((recipientId) => ({
    type: 'mention',
    recipientId,
    actorId,
    objectId: obj.id,
    objectType: objectTypeOf(obj.kind),
    href: rootHref(ctx, obj),
    groupKey: `mention:${obj.id}:${recipientId}`,
    summary: (name) => `${name} mentioned you`,
  }));
}

/** The author of the replied-to object; the thread opens at its root. */
export async function onReplyCreated(
  ctx: NotificationsContext,
  p: EventPayload<'reply.created'>,
): Promise<Intent[]> {
  const reply = await loadObject(ctx, p.replyId);
  if (!reply) return [];
  const out: Intent[] = [];
  const recipientId = p.recipientId ?? null;
  const addressed = { to: reply.to, actorId: reply.rootActorId, deletedAt: null };
  if (recipientId && (await mayRead(ctx, addressed, recipientId))) {
    const parentKind = kindOf(p.parentId);
    out.push({
      type: 'reply',
      recipientId,
      actorId: p.actorId,
      objectId: reply.rootId,
      objectType: objectTypeOf(reply.rootKind),
      href: rootHref(ctx, reply),
      groupKey: `reply:${reply.rootId}`,
      summary: (name) => `${name} replied to your ${nounOf(parentKind ?? reply.rootKind)}`,
    });
  }
  // The replied-to author already hears about this reply; a mention would say it twice.
  out.push(...(await mentionIntents(ctx, reply, p.actorId, [recipientId])));
  return out;
}

/** A new reaction (not a replaced or cleared one: those publish no `react.added`). */
export async function onReactAdded(
  ctx: NotificationsContext,
  p: EventPayload<'react.added'>,
): Promise<Intent[]> {
  // The reaction is still there (one per actor and target: an `_id` read, not a scan by id).
  if ((await ctx.stores.reacts.mine(p.actorId, p.target))?.id !== p.reactId) return [];
  const target = await loadObject(ctx, p.target);
  if (!target) return [];
  const recipientId = p.recipientId ?? target.actorId;
  if (!recipientId) return [];
  if (!(await mayRead(ctx, { to: target.to, actorId: target.rootActorId, deletedAt: null }, recipientId)))
    return [];
  return [
    {
      type: 'react',
      recipientId,
      actorId: p.actorId,
      objectId: target.id,
      objectType: objectTypeOf(target.kind),
      href: rootHref(ctx, target),
      groupKey: `react:${target.id}`,
      summary: (name) => `${name} reacted to your ${nounOf(target.kind)}`,
    },
  ];
}

/** Mentions in the post, and the new-posts digest of the author's followers or group. */
export async function onPostCreated(
  ctx: NotificationsContext,
  p: EventPayload<'post.created'>,
): Promise<Intent[]> {
  const post = await loadObject(ctx, p.postId);
  if (!post || post.kind !== 'post') return [];
  const out = await mentionIntents(ctx, post, p.actorId, []);
  const to = post.to ?? '';
  const publicUrl = ctx.config.publicUrl;
  const digest = { type: 'new_post', actorId: p.actorId, cooldownMs: DIGEST_COOLDOWN_MS } as const;
  if (to.startsWith('group:')) {
    const group = await groupAudience(ctx, to);
    for (const recipientId of group?.members ?? [])
      out.push({
        ...digest,
        recipientId,
        objectId: to,
        objectType: 'Group',
        href: hrefOf(publicUrl, 'group', to),
        groupKey: `group_posts:${to}`,
        summary: () => `There are new posts in "${group?.name}"`,
      });
    return out;
  }
  const followers = await feedRecipients(ctx, { id: post.id, actorId: p.actorId, to, circles: post.circles });
  for (const recipientId of followers)
    out.push({
      ...digest,
      recipientId,
      href: `${publicUrl}/`,
      groupKey: 'feed',
      summary: () => 'Your feeds have new posts',
    });
  return out;
}
