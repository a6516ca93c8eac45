/**
 * What Update may change, per kind (behaviour-notes §4.3 allow-lists; other keys are dropped).
 * Fixed relative to the notes: `body` is never patchable (it is always rendered from `source`,
 * §11.1-9), audiences are canonicalised and must be usable by the object's author.
 */
import { z } from 'zod';
import { canonicalTo, type Viewer } from '@agora/common/audience';
import { plainText, renderMarkdown } from '@agora/common/content';
import { RSVP_POLICIES } from '@agora/common/db';
import { BadRequest, Conflict, NotAuthorized } from '@agora/common/errors';
import type { HandlerContext } from '../../types';
import { httpUrl, idString, markdownSource, mediaRef, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
import { POST_TYPES } from '../posts';
import { emojiString } from './react';
import { assertFolderMove } from './folders';
import { storeOf, type Lean, type StoredKind } from './targets';

export interface PatchInput {
  ctx: HandlerContext;
  doc: Lean;
  /** The viewer of the object's author: the audience must be one the author may use. */
  author: Viewer;
}
type Fields = Record<string, unknown>;

const text = (max: number) => z.string().max(max);
const audience = {
  to: z.unknown().optional(),
  canReply: z.unknown().optional(),
  canReact: z.unknown().optional(),
};
const markdown = { source: markdownSource.optional(), content: markdownSource.optional() };
const tags = z.array(z.string().max(100)).max(50);
const location = z.union([
  z.string().max(300),
  z.object({
    name: z.string().max(300).optional(),
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
  }),
]);

function locationOf(loc: z.infer<typeof location>) {
  return typeof loc === 'string'
    ? { name: loc }
    : { name: loc.name, type: 'Point', coordinates: [loc.lon, loc.lat] };
}

function markdownSet(o: { source?: string | undefined; content?: string | undefined }): Fields {
  const source = o.source ?? o.content;
  return source === undefined
    ? {}
    : { source: { content: source, mediaType: 'text/markdown' }, body: renderMarkdown(source) };
}

async function audienceSet(
  p: PatchInput,
  o: { to?: unknown; canReply?: unknown; canReact?: unknown },
): Promise<Fields> {
  const domain = p.ctx.svc.config.DOMAIN;
  const out: Fields = {};
  let to = p.doc.to ?? '@public';
  if (o.to !== undefined) {
    to = canonicalTo(o.to, 'object.to', domain, p.doc.to ?? '@public');
    await assertCanAddress(p.ctx.svc, p.author, to);
    out.to = to;
  }
  if (o.canReply !== undefined) out.canReply = canonicalTo(o.canReply, 'object.canReply', domain, to);
  if (o.canReact !== undefined) out.canReact = canonicalTo(o.canReact, 'object.canReact', domain, to);
  return out;
}

/** Copies the keys that were given (so an absent key never clears a field). */
function given<T extends object>(o: T, keys: Array<keyof T>): Fields {
  const out: Fields = {};
  for (const k of keys) if (o[k] !== undefined) out[k as string] = o[k];
  return out;
}

const postPatch = z.object({
  type: z.enum(POST_TYPES).optional(),
  title: text(300).optional(),
  summary: text(2000).optional(),
  href: httpUrl.optional(),
  image: mediaRef.optional(),
  featuredImage: mediaRef.optional(),
  tags: tags.optional(),
  location: location.optional(),
  startTime: z.coerce.date().optional(),
  endTime: z.coerce.date().optional(),
  ...markdown,
  ...audience,
});

async function post(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(postPatch, raw, 'object');
  const set: Fields = {
    ...given(o, ['type', 'title', 'summary', 'href', 'tags']),
    ...markdownSet(o),
    ...(await audienceSet(p, o)),
  };
  const source = o.source ?? o.content;
  if (o.summary === undefined && source !== undefined) set.summary = source ? plainText(source) : '';
  if ((o.image ?? o.featuredImage) !== undefined) set.image = o.image ?? o.featuredImage;
  if (o.location !== undefined) set.location = locationOf(o.location);
  if (o.startTime) set['event.startDate'] = o.startTime;
  if (o.endTime) set['event.endDate'] = o.endTime;
  if (typeof set.to === 'string') set.group = set.to.startsWith('group:') ? set.to : null;
  const type = (set.type ?? p.doc.type) as string;
  if (type === 'Link' && !(set.href ?? p.doc.href))
    throw new BadRequest('object.href: a Link post needs href');
  const event = (p.doc.event ?? {}) as { startDate?: Date };
  if (type === 'Event' && !(o.startTime ?? event.startDate))
    throw new BadRequest('object.startTime: an Event needs startTime');
  return set;
}

const replyPatch = z.object(markdown);

function reply(_p: PatchInput, raw: unknown): Fields {
  const o = parse(replyPatch, raw, 'object');
  const set = markdownSet(o);
  if (set.source && !(o.source ?? o.content ?? '').trim())
    throw new BadRequest('object.source: a reply needs content');
  return set;
}

const pagePatch = z.object({
  title: z.string().trim().min(1).max(300).optional(),
  summary: text(2000).optional(),
  slug: z
    .string()
    .max(100)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by -')
    .optional(),
  tags: tags.optional(),
  image: mediaRef.optional(),
  parentId: z.union([idString, z.null()]).optional(),
  order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  ...markdown,
  ...audience,
});

async function page(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(pagePatch, raw, 'object');
  const set: Fields = {
    ...given(o, ['title', 'summary', 'slug', 'tags', 'image', 'parentId', 'order']),
    ...markdownSet(o),
    ...(await audienceSet(p, o)),
  };
  const taken = o.slug && o.slug !== p.doc.slug ? await p.ctx.svc.stores.pages.localBySlug(o.slug) : null;
  if (taken && taken.id !== p.doc.id) {
    throw new Conflict('object.slug: already in use');
  }
  if (o.parentId)
    await assertFolderMove(storeOf(p.ctx.svc, 'page'), p.doc, o.parentId, {
      field: 'object.parentId',
      parentField: 'parentId',
      maxDepth: 5,
    });
  return set;
}

const bookmarkPatch = z.object({
  type: z.enum(['Bookmark', 'Folder']).optional(),
  title: text(300).optional(),
  summary: text(2000).optional(),
  href: httpUrl.optional(),
  target: idString.optional(),
  image: mediaRef.optional(),
  tags: tags.optional(),
  parentFolder: z.union([idString, z.null()]).optional(),
  ...markdown,
  ...audience,
});

async function bookmark(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(bookmarkPatch, raw, 'object');
  const set: Fields = {
    ...given(o, ['type', 'title', 'summary', 'href', 'target', 'image', 'tags', 'parentFolder']),
    ...markdownSet(o),
    ...(await audienceSet(p, o)),
  };
  const model = storeOf(p.ctx.svc, 'bookmark');
  const type = (set.type ?? p.doc.type) as string;
  if (type === 'Bookmark' && !(set.href ?? p.doc.href ?? set.target ?? p.doc.target))
    throw new BadRequest('object.href: a Bookmark needs href or target');
  if (
    type === 'Bookmark' &&
    p.doc.type === 'Folder' &&
    (await model.childrenIn('parentFolder', [p.doc.id])).length > 0
  ) {
    throw new BadRequest('object.type: a folder that holds items cannot become a bookmark');
  }
  if (o.parentFolder)
    await assertFolderMove(model, p.doc, o.parentFolder, {
      field: 'object.parentFolder',
      parentField: 'parentFolder',
      maxDepth: 5,
    });
  return set;
}

const circlePatch = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  summary: text(2000).optional(),
  icon: mediaRef.optional(),
  ...audience,
});

async function circle(p: PatchInput, raw: unknown): Promise<Fields> {
  if (p.doc.type === 'System') throw new NotAuthorized('This circle cannot be changed');
  const o = parse(circlePatch, raw, 'object');
  return { ...given(o, ['name', 'summary', 'icon']), ...(await audienceSet(p, o)) };
}

const groupPatch = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  description: text(5000).optional(),
  icon: mediaRef.optional(),
  image: mediaRef.optional(),
  rsvpPolicy: z.enum(RSVP_POLICIES).optional(),
  location: location.optional(),
  ...audience,
});

async function group(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(groupPatch, raw, 'object');
  const set: Fields = {
    ...given(o, ['name', 'description', 'icon', 'image', 'rsvpPolicy']),
    ...(await audienceSet(p, o)),
  };
  if (o.location !== undefined) set.location = locationOf(o.location);
  return set;
}

const reactPatch = z.object({ emoji: emojiString.optional(), name: z.string().trim().max(100).optional() });

function react(_p: PatchInput, raw: unknown): Fields {
  return given(parse(reactPatch, raw, 'object'), ['emoji', 'name']);
}

export const PATCHERS: Record<StoredKind, (p: PatchInput, raw: unknown) => Fields | Promise<Fields>> = {
  post,
  reply,
  page,
  bookmark,
  circle,
  group,
  react,
};
