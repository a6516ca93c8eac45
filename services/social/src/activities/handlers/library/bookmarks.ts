/**
 * Create Bookmark / Folder (behaviour-notes §2.4 Bookmark, §4.5). A bookmark points at a URL
 * (`href`) or an object (`target`); folders nest at most MAX_FOLDER_DEPTH deep, and an item
 * can only be filed in one of the actor's own live folders. Bookmarks never federate.
 */
import { z } from 'zod';
import { canonicalTo, type Viewer } from '@agora/common/audience';
import { plainText, renderMarkdown } from '@agora/common/content';
import { mintId, parseId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../../../context';
import type { ActivityHandler } from '../../types';
import { actorRef, clean, httpUrl, idString, markdownSource, mediaRef, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
import { readableObject } from '../../../access/objects';
import {
  MAX_FOLDER_DEPTH,
  ancestorsOf,
  findVisibleBookmark,
  type BookmarkRecord,
} from '../../../access/bookmarks';
import { domainEvent } from '@agora/common/messaging';

const bookmarkObject = z
  .object({
    type: z.enum(['Bookmark', 'Folder']).default('Bookmark'),
    href: httpUrl.optional(),
    target: idString.optional(),
    title: z.string().trim().max(300).optional(),
    summary: z.string().max(2000).optional(),
    source: markdownSource.optional(),
    content: markdownSource.optional(),
    image: mediaRef.optional(),
    tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    parentFolder: idString.nullable().optional(),
    parentId: idString.nullable().optional(),
  })
  .refine((o) => o.type === 'Folder' || o.href || o.target, {
    message: 'a bookmark needs href or target',
    path: ['href'],
  })
  .refine((o) => o.type === 'Bookmark' || o.title, { message: 'a folder needs a title', path: ['title'] });

/** A bookmarked object must be one the actor can read (local) or at least a well-formed id. */
async function checkTarget(ctx: SocialContext, viewer: Viewer, target: string): Promise<void> {
  const parsed = parseId(target);
  if (parsed.type === 'Unknown') throw new BadRequest('object.target: must be an object or user id');
  if (parsed.domain !== ctx.config.DOMAIN || parsed.type !== 'Object') return;
  if (parsed.kind === 'bookmark') {
    if (!(await findVisibleBookmark(ctx, viewer, target))) throw new NotFound('Not found');
    return;
  }
  await readableObject(ctx, viewer, target);
}

/** The parent folder: one of the actor's own live folders, with room for the new item. */
async function checkParent(
  ctx: SocialContext,
  actorId: string,
  parentId: string,
  isFolder: boolean,
): Promise<BookmarkRecord> {
  const parent = await ctx.stores.bookmarks.liveById(parentId);
  if (!parent || parent.type !== 'Folder' || parent.actorId !== actorId)
    throw new BadRequest('object.parentFolder: must be one of your folders');
  const above = await ancestorsOf(ctx, parent);
  if (!above) throw new BadRequest('object.parentFolder: the folder is not reachable from the root');
  const level = above.length + 2;
  if (isFolder && level > MAX_FOLDER_DEPTH)
    throw new BadRequest(`object.parentFolder: folders nest at most ${MAX_FOLDER_DEPTH} deep`);
  return parent;
}

export const createBookmark: ActivityHandler = async ({ svc: ctx, actor, viewer, activity }) => {
  const obj = parse(bookmarkObject, activity.object, 'object');
  const domain = ctx.config.DOMAIN;
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain);
  await assertCanAddress(ctx, viewer, to);
  if (obj.target) await checkTarget(ctx, viewer, obj.target);
  const parentId = obj.parentFolder ?? obj.parentId ?? null;
  if (parentId) await checkParent(ctx, actor.id, parentId, obj.type === 'Folder');
  const source = obj.source ?? obj.content ?? '';
  const id = mintId('bookmark', domain);
  const created = await ctx.stores.bookmarks.create({
    id,
    type: obj.type,
    actorId: actor.id,
    actor: actorRef(actor),
    server: `@${domain}`,
    url: `${ctx.config.publicUrl}/bookmarks/${encodeURIComponent(id)}`,
    parentFolder: parentId,
    href: obj.href,
    target: obj.target,
    title: obj.title || obj.href || obj.target,
    summary: obj.summary ?? (source ? plainText(source) : undefined),
    source: { content: source, mediaType: 'text/markdown' },
    body: source ? renderMarkdown(source) : '',
    image: obj.image,
    tags: obj.tags ?? [],
    to,
    canReply: canonicalTo(activity.canReply, 'canReply', domain, to),
    canReact: canonicalTo(activity.canReact, 'canReact', domain, to),
  });
  return {
    result: clean(created as Record<string, unknown>),
    objectId: id,
    objectType: 'Bookmark',
    to,
    // Never federated; the event is for notifications and search.
    events: [
      domainEvent('bookmark.created', {
        bookmarkId: id,
        actorId: actor.id,
        to,
        type: obj.type,
        parentFolder: parentId,
        ...(obj.target ? { target: obj.target } : {}),
      }),
    ],
  };
};
