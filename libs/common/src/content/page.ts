/**
 * Pages as both writers build them (Create Page through POST /outbox, /admin/pages): the fields,
 * their defaults, the slug, the rendered body and the stored shape. Whether a slug is free and
 * whether a parent exists are store questions the caller answers.
 */
import { z } from 'zod';
import { httpUrl, idString, mediaRef } from '../validation';
import {
  given,
  markdownSource,
  rendered,
  sourceOf,
  summaryOf,
  tagList,
  type Addressing,
  type Origin,
} from './fields';
import { plainText } from './markdown';
import { slugify } from './slug';
import { newSensitivity, sensitivityChanges, sensitivityShape } from './sensitivity';

export const PAGE_TYPES = ['Page', 'Folder'] as const;

const shape = {
  type: z.enum(PAGE_TYPES),
  title: z.string().trim().min(1).max(300),
  slug: z.string().max(200).optional(),
  summary: z.string().max(2000).optional(),
  source: markdownSource.optional(),
  content: markdownSource.optional(),
  parentId: idString.nullable().optional(),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  image: mediaRef.nullable().optional(),
  tags: tagList.optional(),
  /** Where the page lives when it is not served here (a link in the server's menu). */
  href: httpUrl.optional(),
  ...sensitivityShape,
};

/** A new page's fields: a page needs content, a folder does not. */
export const pageInput = z
  .object({ ...shape, type: shape.type.default('Page'), order: shape.order.default(0) })
  .refine((o) => o.type === 'Folder' || (sourceOf(o) ?? '').trim(), {
    message: 'a page needs content',
    path: ['source'],
  });

export type PageInput = z.infer<typeof pageInput>;

/** The fields an edit may change (the audiences are the caller's). */
export const pagePatchInput = z.object(shape).partial();

export type PagePatch = z.infer<typeof pagePatchInput>;

/**
 * The slug a given slug or a title asks for, made unique by the caller; `page` when nothing of
 * the text is left (a title in a script slugs do not spell).
 */
export function wantedSlug(text: string): string {
  return slugify(text) || 'page';
}

/** A page's address here. */
export function pageUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/pages/${slug}`;
}

/** A new page as stored, under the slug the caller made unique. */
export function newPage(input: PageInput, origin: Origin, addressing: Addressing, slug: string) {
  const source = sourceOf(input) ?? '';
  return {
    id: origin.id,
    type: input.type,
    title: input.title,
    slug,
    summary: input.summary ?? (source ? plainText(source) : undefined),
    ...rendered(source),
    parentId: input.parentId ?? null,
    order: input.order,
    tags: input.tags ?? [],
    image: input.image ?? undefined,
    actorId: origin.author.id,
    actor: origin.author,
    server: origin.server,
    url: input.href ?? pageUrl(origin.publicUrl, slug),
    ...newSensitivity(input),
    ...addressing,
  };
}

/**
 * The changes an edit makes: the given fields, the body rendered again with its summary, the
 * new slug (made unique by the caller) with the address that follows it, and the audience
 * fields the caller resolved.
 */
export function pageChanges(
  patch: PagePatch,
  at: { publicUrl: string; slug?: string | undefined },
  audience: Partial<Addressing> = {},
): Record<string, unknown> {
  const set: Record<string, unknown> = {
    ...given(patch, ['type', 'title', 'summary', 'tags', 'image', 'parentId', 'order']),
    ...sensitivityChanges(patch),
    ...audience,
  };
  const source = sourceOf(patch);
  if (source !== undefined) {
    Object.assign(set, rendered(source));
    if (patch.summary === undefined) set.summary = summaryOf(source);
  }
  if (at.slug !== undefined) {
    set.slug = at.slug;
    set.url = pageUrl(at.publicUrl, at.slug);
  }
  if (patch.href) set.url = patch.href;
  return set;
}
