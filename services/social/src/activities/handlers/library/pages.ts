/**
 * Create Page (behaviour-notes §4.5 Page, spec 4.3). Pages are server content: only server
 * admins create them (the reference let any user), authored by the admin but owned by the
 * server actor (`server: @<domain>`).
 */
import { canonicalTo } from '@agora/common/audience';
import { newPage, pageInput, wantedSlug } from '@agora/common/content';
import { mintId } from '@agora/common/db';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import type { ActivityHandler } from '../../types';
import { actorRef, clean, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
import { domainEvent } from '@agora/common/messaging';

export const createPage: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  if (!actor.isServerAdmin) throw new NotAuthorized('Only server admins can create pages');
  const obj = parse(pageInput, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  if (obj.parentId && !(await ctx.stores.pages.liveById(obj.parentId).then((p) => p && !p.originDomain))) {
    throw new BadRequest('object.parentId: no such page');
  }
  const id = mintId('page', domain);
  const created = await ctx.stores.pages.createUnderFreeSlug(wantedSlug(obj.slug ?? obj.title), (slug) =>
    newPage(
      obj,
      { id, author: actorRef(actor), server: `@${domain}`, publicUrl: ctx.config.publicUrl },
      { to, canReply, canReact },
      slug,
    ),
  );
  const slug = created.slug;
  return {
    result: clean(created as Record<string, unknown>),
    objectId: id,
    objectType: 'Page',
    to,
    events: [domainEvent('page.created', { pageId: id, actorId: actor.id, slug, to })],
  };
};
