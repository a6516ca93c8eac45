/** Create Post (decisions.md §4; payloads from behaviour-notes §4.5). */
import { canonicalTo } from '@agora/common/audience';
import { newPost, postInput } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import type { AreaHandlers } from '../registry';
import type { ActivityHandler } from '../types';
import { actorRef, clean, parse } from '../validate';
import { assertCanAddress } from '../audience-check';
import { attachFiles, fileIdsIn } from '../../files/attach';
import { mediaOfFiles } from '../../files/media';
import { domainEvent } from '@agora/common/messaging';

const postObject = postInput();

const createPost: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  const obj = parse(postObject, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  const id = mintId('post', domain);
  const attachments = [...new Set(obj.attachments ?? [])];
  await attachFiles(
    ctx,
    actor.id,
    fileIdsIn([...attachments, obj.image, obj.featuredImage]),
    id,
    'object.attachments',
  );
  const doc = newPost(
    obj,
    { id, author: actorRef(actor), server: `@${domain}`, publicUrl: ctx.config.publicUrl },
    { to, canReply, canReact },
    { attachments, media: await mediaOfFiles(ctx, attachments) },
  );
  // The author's circles were read once for this activity (the viewer): the fan-out targets.
  const created = await ctx.stores.posts.createLocal(doc, { circles: viewer.circleIds });
  return {
    result: withoutCircles(clean(created as Record<string, unknown>)),
    objectId: id,
    objectType: 'Post',
    to,
    events: [domainEvent('post.created', { postId: id, actorId: actor.id, to, type: obj.type })],
    stored: created,
  };
};

/** A post as returned to its author: without the circles fan-out wrote it to. */
export function withoutCircles(post: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!post) return null;
  const { circles, ...rest } = post;
  void circles;
  return rest;
}

export const postHandlers: AreaHandlers = { create: { Post: createPost } };
