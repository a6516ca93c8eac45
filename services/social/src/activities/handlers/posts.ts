/** Create Post (decisions.md §4; payloads from behaviour-notes §4.5). */
import { z } from 'zod';
import { canonicalTo } from '@agora/common/audience';
import { plainText, renderMarkdown } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import type { AreaHandlers } from '../registry';
import type { ActivityHandler } from '../types';
import { actorRef, clean, httpUrl, markdownSource, mediaRef, parse } from '../validate';
import { assertCanAddress } from '../audience-check';
import { attachFiles, fileIdsIn } from '../../files/attach';
import { domainEvent } from '@agora/common/messaging';

export const POST_TYPES = ['Note', 'Article', 'Media', 'Link', 'Event'] as const;

const postObject = z
  .object({
    type: z.enum(POST_TYPES).default('Note'),
    content: markdownSource.optional(),
    source: markdownSource.optional(),
    title: z.string().max(300).optional(),
    summary: z.string().max(2000).optional(),
    href: httpUrl.optional(),
    image: mediaRef.optional(),
    featuredImage: mediaRef.optional(),
    tags: z.array(z.string().max(100)).max(50).optional(),
    // File ids (or `{ fileId }`, as the reference client sends them); they take the post's audience.
    attachments: z
      .array(
        z.union([z.string().max(300), z.object({ fileId: z.string().max(300) }).transform((a) => a.fileId)]),
      )
      .max(20)
      .optional(),
    startTime: z.coerce.date().optional(),
    endTime: z.coerce.date().optional(),
    location: z
      .union([
        z.string().max(300),
        z.object({
          name: z.string().max(300).optional(),
          lat: z.number().min(-90).max(90),
          lon: z.number().min(-180).max(180),
        }),
      ])
      .optional(),
  })
  .refine(
    (o) =>
      (o.source ?? o.content ?? '').trim() ||
      o.title ||
      o.href ||
      o.image ||
      o.featuredImage ||
      o.attachments?.length,
    {
      message: 'a post needs content, a title, a link or an image',
    },
  )
  .refine((o) => o.type !== 'Link' || o.href, { message: 'a Link post needs href', path: ['href'] })
  .refine((o) => o.type !== 'Event' || o.startTime, {
    message: 'an Event needs startTime',
    path: ['startTime'],
  });

function location(loc: z.infer<typeof postObject>['location']) {
  if (loc === undefined) return undefined;
  if (typeof loc === 'string') return { name: loc };
  return { name: loc.name, type: 'Point', coordinates: [loc.lon, loc.lat] };
}

const createPost: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  const obj = parse(postObject, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  const source = obj.source ?? obj.content ?? '';
  const id = mintId('post', domain);
  const now = new Date();
  const attachments = [...new Set(obj.attachments ?? [])];
  await attachFiles(
    ctx,
    actor.id,
    fileIdsIn([...attachments, obj.image, obj.featuredImage]),
    id,
    'object.attachments',
  );
  const doc = {
    id,
    type: obj.type,
    actorId: actor.id,
    actor: actorRef(actor),
    server: `@${domain}`,
    url: `${ctx.config.publicUrl}/posts/${id}`,
    title: obj.title,
    summary: obj.summary ?? (source ? plainText(source) : undefined),
    source: { content: source, mediaType: 'text/markdown' },
    body: renderMarkdown(source),
    href: obj.href,
    image: obj.image ?? obj.featuredImage,
    tags: obj.tags ?? [],
    attachments,
    location: location(obj.location),
    ...(obj.type === 'Event' ? { event: { startDate: obj.startTime, endDate: obj.endTime } } : {}),
    to,
    canReply,
    canReact,
    group: to.startsWith('group:') ? to : null,
    publishedAt: now,
  };
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
