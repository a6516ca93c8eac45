/**
 * Posts as both writers build them (POST /outbox in the social service, server announcements in
 * the admin service): the fields a client may give, their defaults, the rendered body and the
 * stored shape. Who may address what is the caller's decision; it hands in the audiences.
 */
import { z } from 'zod';
import { httpUrl, mediaRef } from '../validation';
import {
  given,
  invalid,
  markdownSource,
  placeInput,
  placeOf,
  rendered,
  sourceOf,
  summaryOf,
  tagList,
  type Addressing,
  type Origin,
} from './fields';
import { plainText } from './markdown';
import { newSensitivity, sensitivityChanges, sensitivityShape, type MediaItem } from './sensitivity';

export const POST_TYPES = ['Note', 'Article', 'Media', 'Link', 'Event'] as const;
export type PostType = (typeof POST_TYPES)[number];

/** File ids, or `{ fileId }` as the reference client sends them. */
const attachmentIds = z
  .array(z.union([z.string().max(300), z.object({ fileId: z.string().max(300) }).transform((a) => a.fileId)]))
  .max(20);

const shape = (types: readonly [PostType, ...PostType[]]) => ({
  type: z.enum(types),
  content: markdownSource.optional(),
  source: markdownSource.optional(),
  title: z.string().max(300).optional(),
  summary: z.string().max(2000).optional(),
  href: httpUrl.optional(),
  image: mediaRef.optional(),
  featuredImage: mediaRef.optional(),
  tags: tagList.optional(),
  startTime: z.coerce.date().optional(),
  endTime: z.coerce.date().optional(),
  location: placeInput.optional(),
  ...sensitivityShape,
});

export interface PostSchemaOptions {
  /** The types this writer may create (every post type unless narrowed). */
  types?: readonly [PostType, ...PostType[]];
  /** Whether the post may carry uploaded files (the social service attaches them). */
  attachments?: boolean;
}

/** A new post's fields. */
export function postInput(opts: PostSchemaOptions = {}) {
  const base = shape(opts.types ?? POST_TYPES);
  return z
    .object({
      ...base,
      type: base.type.default(base.type.options[0]!),
      attachments: attachmentIds.optional(),
    })
    .refine((o) => opts.attachments !== false || !o.attachments?.length, {
      message: 'files cannot be attached here',
      path: ['attachments'],
    })
    .refine(
      (o) =>
        (sourceOf(o) ?? '').trim() ||
        o.title ||
        o.href ||
        o.image ||
        o.featuredImage ||
        o.attachments?.length,
      { message: 'a post needs content, a title, a link or an image' },
    )
    .refine((o) => o.type !== 'Link' || o.href, { message: 'a Link post needs href', path: ['href'] })
    .refine((o) => o.type !== 'Event' || o.startTime, {
      message: 'an Event needs startTime',
      path: ['startTime'],
    });
}

export type PostInput = z.infer<ReturnType<typeof postInput>>;

/** The fields an edit may change (the audiences are the caller's). */
export function postPatchInput(opts: Pick<PostSchemaOptions, 'types'> = {}) {
  return z.object(shape(opts.types ?? POST_TYPES)).partial();
}

export type PostPatch = z.infer<ReturnType<typeof postPatchInput>>;

/** The group a post addressed to a group belongs to (its list and its readers). */
function groupOf(to: string): string | null {
  return to.startsWith('group:') ? to : null;
}

/** A new local post as stored. */
export function newPost(
  input: PostInput,
  origin: Origin,
  addressing: Addressing,
  extra: { attachments?: string[]; media?: MediaItem[]; publishedAt?: Date } = {},
) {
  const source = sourceOf(input) ?? '';
  return {
    id: origin.id,
    type: input.type,
    actorId: origin.author.id,
    actor: origin.author,
    server: origin.server,
    url: `${origin.publicUrl}/posts/${origin.id}`,
    title: input.title,
    summary: input.summary ?? (source ? plainText(source) : undefined),
    ...rendered(source),
    href: input.href,
    image: input.image ?? input.featuredImage,
    tags: input.tags ?? [],
    attachments: extra.attachments ?? [],
    media: extra.media ?? [],
    ...newSensitivity(input),
    location: input.location === undefined ? undefined : placeOf(input.location),
    ...(input.type === 'Event' ? { event: { startDate: input.startTime, endDate: input.endTime } } : {}),
    ...addressing,
    group: groupOf(addressing.to),
    publishedAt: extra.publishedAt ?? new Date(),
  };
}

/** What a post keeps of the current state when an edit is checked. */
export interface CurrentPost {
  type?: string | null;
  href?: string | null;
  event?: { startDate?: Date | null } | null;
}

/**
 * The changes an edit makes: the given fields, the body rendered again with its summary, and the
 * audience fields the caller resolved. Refuses a Link left without `href` or an Event without a
 * start. `prefix` names the fields in errors (`object` for POST /outbox).
 */
export function postChanges(
  patch: PostPatch,
  current: CurrentPost,
  audience: Partial<Addressing> = {},
  prefix = '',
): Record<string, unknown> {
  const set: Record<string, unknown> = {
    ...given(patch, ['type', 'title', 'summary', 'href', 'tags']),
    ...sensitivityChanges(patch),
    ...audience,
  };
  const source = sourceOf(patch);
  if (source !== undefined) {
    Object.assign(set, rendered(source));
    if (patch.summary === undefined) set.summary = summaryOf(source);
  }
  const image = patch.image ?? patch.featuredImage;
  if (image !== undefined) set.image = image;
  if (patch.location !== undefined) set.location = placeOf(patch.location);
  if (patch.startTime) set['event.startDate'] = patch.startTime;
  if (patch.endTime) set['event.endDate'] = patch.endTime;
  if (audience.to !== undefined) set.group = groupOf(audience.to);
  const type = (set.type ?? current.type) as string;
  if (type === 'Link' && !(set.href ?? current.href)) throw invalid(prefix, 'href', 'a Link post needs href');
  if (type === 'Event' && !(patch.startTime ?? current.event?.startDate))
    throw invalid(prefix, 'startTime', 'an Event needs startTime');
  return set;
}
