/**
 * What Update may change, per kind (behaviour-notes §4.3 allow-lists; other keys are dropped).
 * Fixed relative to the notes: `body` is never patchable (it is always rendered from `source`,
 * §11.1-9), audiences are canonicalised and must be usable by the object's author.
 */
import { z } from 'zod';
import { canonicalTo, type Viewer } from '@agora/common/audience';
import {
  markdownSource,
  pageChanges,
  pagePatchInput,
  placeInput,
  placeOf,
  postChanges,
  postPatchInput,
  rendered,
  replyChanges,
  replyPatchInput,
  sourceOf,
  tagList,
  given,
  wantedSlug,
  type Addressing,
  type MarkdownInput,
} from '@agora/common/content';
import { RSVP_POLICIES } from '@agora/common/db';
import { BadRequest, Conflict, NotAuthorized } from '@agora/common/errors';
import type { HandlerContext } from '../../types';
import { httpUrl, idString, mediaRef, parse } from '../../validate';
import { assertCanAddress } from '../../audience-check';
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

function markdownSet(o: MarkdownInput): Fields {
  const source = sourceOf(o);
  return source === undefined ? {} : rendered(source);
}

async function audienceSet(
  p: PatchInput,
  o: { to?: unknown; canReply?: unknown; canReact?: unknown },
): Promise<Partial<Addressing>> {
  const domain = p.ctx.svc.config.DOMAIN;
  const out: Partial<Addressing> = {};
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

const postPatch = postPatchInput().extend(audience);

async function post(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(postPatch, raw, 'object');
  return postChanges(o, p.doc, await audienceSet(p, o), 'object');
}

const replyPatch = replyPatchInput;

function reply(_p: PatchInput, raw: unknown): Fields {
  return replyChanges(parse(replyPatch, raw, 'object'), 'object');
}

const pagePatch = pagePatchInput.extend(audience);

async function page(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(pagePatch, raw, 'object');
  const slug = o.slug === undefined ? undefined : wantedSlug(o.slug);
  // Deleted pages keep their slugs (an admin may restore them); a rename racing for the same
  // slug is refused at the write (the unique index on `slug`: update.ts answers 409 too).
  const taken = slug && slug !== p.doc.slug ? await p.ctx.svc.stores.pages.anyLocalBySlug(slug) : null;
  if (taken && taken.id !== p.doc.id) {
    throw new Conflict('object.slug: already in use');
  }
  if (o.parentId)
    await assertFolderMove(storeOf(p.ctx.svc, 'page'), p.doc, o.parentId, {
      field: 'object.parentId',
      parentField: 'parentId',
      maxDepth: 5,
    });
  return pageChanges(o, { publicUrl: p.ctx.svc.config.publicUrl, slug }, await audienceSet(p, o));
}

const bookmarkPatch = z.object({
  type: z.enum(['Bookmark', 'Folder']).optional(),
  title: text(300).optional(),
  summary: text(2000).optional(),
  href: httpUrl.optional(),
  target: idString.optional(),
  image: mediaRef.optional(),
  tags: tagList.optional(),
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
  location: placeInput.optional(),
  ...audience,
});

async function group(p: PatchInput, raw: unknown): Promise<Fields> {
  const o = parse(groupPatch, raw, 'object');
  const set: Fields = {
    ...given(o, ['name', 'description', 'icon', 'image', 'rsvpPolicy']),
    ...(await audienceSet(p, o)),
  };
  if (o.location !== undefined) set.location = placeOf(o.location);
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
