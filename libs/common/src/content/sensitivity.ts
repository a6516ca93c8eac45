/**
 * Content warnings and sensitive media (ADR 0021): fields posts, replies and pages share beyond
 * the spec. `contentWarning` is a short text the reader sees before the content (empty: none);
 * `sensitive` says the media should stay hidden until the reader asks. On ActivityPub they are a
 * Note's `summary` and `sensitive`; the spec's own `summary` (a plain-text opening) is another
 * field and keeps its meaning.
 */
import { z } from 'zod';
import type { MediaDoc } from '../db/repositories/content-records';
import { given } from './fields';

export const CONTENT_WARNING_MAX = 500;
/** An image description (alt text): Mastodon's limit, so a description survives the trip. */
export const DESCRIPTION_MAX = 1500;

export const sensitivityShape = {
  contentWarning: z.string().trim().max(CONTENT_WARNING_MAX).optional(),
  sensitive: z.boolean().optional(),
};

export interface SensitivityInput {
  contentWarning?: string | undefined;
  sensitive?: boolean | undefined;
}

/** A new document's fields: no warning and not sensitive unless said. */
export function newSensitivity(input: SensitivityInput): { contentWarning: string; sensitive: boolean } {
  return { contentWarning: input.contentWarning ?? '', sensitive: input.sensitive ?? false };
}

/** An edit's fields: only those given (an empty warning removes it). */
export function sensitivityChanges(patch: SensitivityInput): Record<string, unknown> {
  return given(patch, ['contentWarning', 'sensitive']);
}

type Json = Record<string, unknown>;

/**
 * The warning and flag of an object another server sent (either wire): `summary` is the warning
 * (ActivityPub's meaning), cut to our limit rather than refused; `sensitive` only when a boolean.
 */
export function sensitivityFrom(object: Json): { contentWarning: string; sensitive: boolean } {
  const summary = typeof object.summary === 'string' ? object.summary.trim() : '';
  return {
    contentWarning: summary.slice(0, CONTENT_WARNING_MAX),
    sensitive: object.sensitive === true,
  };
}

/** A post's media as stored and returned: a file's address, kind and description. */
export type MediaItem = MediaDoc;

const isHttp = (v: unknown): v is string =>
  typeof v === 'string' && /^https?:\/\//i.test(v) && v.length <= 2000;
/** A URL given as a string, a Link (`href`) or a list of them; nesting and lists are bounded. */
const urlOf = (v: unknown, depth = 0): string | undefined => {
  if (isHttp(v)) return v;
  if (depth > 3) return undefined;
  if (Array.isArray(v))
    return v.slice(0, 10).reduce<string | undefined>((u, x) => u ?? urlOf(x, depth + 1), undefined);
  if (typeof v === 'object' && v !== null) return urlOf((v as Json).href, depth + 1);
  return undefined;
};
const dimension = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 100_000 ? v : undefined;

/**
 * The media of an object another server sent: its `attachment` (an object or a list) with an
 * http(s) URL, `name` as the description; at most 20, the rest dropped.
 */
export function mediaFrom(object: Json): MediaItem[] {
  const raw = object.attachment;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const out: MediaItem[] = [];
  for (const a of list.slice(0, 20)) {
    if (typeof a !== 'object' || a === null) continue;
    const o = a as Json;
    const url = urlOf(o.url) ?? urlOf(o.href);
    if (!url) continue;
    const width = dimension(o.width);
    const height = dimension(o.height);
    out.push({
      url,
      mediaType: typeof o.mediaType === 'string' ? o.mediaType.slice(0, 100) : '',
      description: typeof o.name === 'string' ? o.name.slice(0, DESCRIPTION_MAX) : '',
      ...(width ? { width } : {}),
      ...(height ? { height } : {}),
    });
  }
  return out;
}

/** A post's media as an ActivityStreams `attachment` (`name` is the description). */
export function attachmentOf(media: MediaItem[] | null | undefined): Json[] {
  return (media ?? []).map((m) => ({
    type: m.mediaType.startsWith('image/') ? 'Image' : 'Document',
    mediaType: m.mediaType,
    url: m.url,
    name: m.description,
    ...(m.width ? { width: m.width } : {}),
    ...(m.height ? { height: m.height } : {}),
  }));
}

/**
 * The wire fields of a stored post or reply: `summary` its content warning (only when there is
 * one), `sensitive`, and `attachment` its media (only when it has some). Both wires carry them.
 */
export function wireSensitivity(doc: {
  contentWarning?: unknown;
  sensitive?: unknown;
  media?: unknown;
}): Json {
  const warning = typeof doc.contentWarning === 'string' ? doc.contentWarning : '';
  const media = Array.isArray(doc.media) ? (doc.media as MediaItem[]) : [];
  return {
    ...(warning ? { summary: warning } : {}),
    sensitive: doc.sensitive === true,
    ...(media.length ? { attachment: attachmentOf(media) } : {}),
  };
}
