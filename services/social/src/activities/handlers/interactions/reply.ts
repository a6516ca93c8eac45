/**
 * Reply (behaviour-notes §4.3, fixed per decisions.md §4): the target must exist, be visible to
 * the actor and admit them through `canReply`; threads are at most two levels deep; the same
 * text sent twice to the same parent within five minutes returns the first reply.
 */
import { newReply, replyInput, replyText } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import type { ActivityHandler, HandlerContext } from '../../types';
import { actorRef, clean, idString, parse } from '../../validate';
import { assertCapability, kindAmong, threadOf, visibleTarget } from './targets';
import { bumpObject, bumpUser } from './counters';
import { domainEvent } from '@agora/common/messaging';

const REPLYABLE = ['post', 'page', 'bookmark', 'circle', 'group', 'reply'] as const;
const DEDUPE_MS = 5 * 60_000;

/** The object an interaction points at: `to`, or `target` when `to` is absent. */
export function pointedAt(ctx: HandlerContext): { id: string; field: 'to' | 'target' } {
  const field = ctx.activity.to !== undefined ? 'to' : 'target';
  return { id: parse(idString, ctx.activity[field], field), field };
}

export const reply: ActivityHandler = async (ctx) => {
  const { svc, actor, viewer } = ctx;
  const { id: targetId, field } = pointedAt(ctx);
  // Another server's post or reply is answered through its copy here (docs/federation.md).
  kindAmong(svc, targetId, REPLYABLE, field, { copies: true });
  const obj = parse(replyInput, ctx.activity.object, 'object');
  const content = replyText(obj);

  const replied = await visibleTarget(svc, viewer, targetId, { copies: true });
  const { root, parentId } = await threadOf(svc, replied);
  assertCapability(svc, viewer, root, 'canReply');

  const recent = await svc.stores.replies.recentTwin(
    actor.id,
    root.doc.id,
    parentId,
    content,
    new Date(Date.now() - DEDUPE_MS),
  );
  if (recent) return { result: clean(recent), objectId: recent.id, objectType: 'Reply', target: targetId };

  const domain = svc.config.DOMAIN;
  const id = mintId('reply', domain);
  const created = await svc.stores.replies.create(
    newReply(
      obj,
      { id, author: actorRef(actor), server: `@${domain}`, publicUrl: svc.config.publicUrl },
      { target: root.doc.id, parent: parentId },
    ),
  );
  await bumpUser(svc, actor.id, 'replyCount', 1);
  await bumpObject(svc, root.doc.id, 'replyCount', 1);
  if (parentId !== root.doc.id) await bumpObject(svc, parentId, 'replyCount', 1);
  return {
    result: clean(created as Record<string, unknown>),
    objectId: id,
    objectType: 'Reply',
    target: targetId,
    events: [
      domainEvent('reply.created', {
        replyId: id,
        rootId: root.doc.id,
        parentId,
        actorId: actor.id,
        recipientId: replied.doc.actorId ?? null,
      }),
    ],
  };
};
