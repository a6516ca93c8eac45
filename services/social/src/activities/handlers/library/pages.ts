/**
 * Create Page (behaviour-notes §4.5 Page, spec 4.3). Pages are server content: only server
 * admins create them (the reference let any user), authored by the admin but owned by the
 * server actor (`server: @<domain>`).
 */
import { z } from 'zod';
import { canonicalTo } from '@agora/common/audience';
import { plainText, renderMarkdown, slugify } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import type { ActivityHandler } from '../../types';
import { actorRef, clean, idString, markdownSource, mediaRef, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
import { domainEvent } from '@agora/common/messaging';

const pageObject = z
  .object({
    type: z.enum(['Page', 'Folder']).default('Page'),
    title: z.string().trim().min(1).max(300),
    source: markdownSource.optional(),
    content: markdownSource.optional(),
    slug: z.string().max(200).optional(),
    summary: z.string().max(2000).optional(),
    parentId: idString.optional(),
    order: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    image: mediaRef.optional(),
  })
  .refine((o) => o.type === 'Folder' || (o.source ?? o.content ?? '').trim(), {
    message: 'a page needs content',
    path: ['source'],
  });

export const createPage: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  if (!actor.isServerAdmin) throw new NotAuthorized('Only server admins can create pages');
  const obj = parse(pageObject, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  if (obj.parentId && !(await ctx.stores.pages.liveById(obj.parentId).then((p) => p && !p.originDomain))) {
    throw new BadRequest('object.parentId: no such page');
  }
  const slug = await ctx.stores.pages.freeSlug(slugify(obj.slug ?? obj.title) || 'page');
  const source = obj.source ?? obj.content ?? '';
  const id = mintId('page', domain);
  const created = await ctx.stores.pages.create({
    id,
    type: obj.type,
    title: obj.title,
    slug,
    summary: obj.summary ?? (source ? plainText(source) : undefined),
    source: { content: source, mediaType: 'text/markdown' },
    body: renderMarkdown(source),
    parentId: obj.parentId ?? null,
    order: obj.order,
    tags: obj.tags ?? [],
    image: obj.image,
    actorId: actor.id,
    actor: actorRef(actor),
    server: `@${domain}`,
    url: `${ctx.config.publicUrl}/pages/${slug}`,
    to,
    canReply,
    canReact,
  });
  return {
    result: clean(created as Record<string, unknown>),
    objectId: id,
    objectType: 'Page',
    to,
    events: [domainEvent('page.created', { pageId: id, actorId: actor.id, slug, to })],
  };
};
