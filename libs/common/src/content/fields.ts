/**
 * What posts, replies and pages share: the markdown source a client sends (a string or
 * `{ content }`), rendered once to sanitised HTML; tags; a place; the audience fields a document
 * carries. The services decide who may use which audience; these modules only shape documents.
 */
import { z } from 'zod';
import { BadRequest } from '../errors';
import type { ActorRef, Source } from '../db/repositories/content-records';
import { plainText, renderMarkdown } from './markdown';

/** A markdown source given as a string or `{ content }` (the reference client sends both). */
export const markdownSource = z.union([
  z.string().max(100_000),
  z
    .object({ content: z.string().max(100_000), mediaType: z.string().max(50).optional() })
    .transform((s) => s.content),
]);

/** Free-form tags: trimmed, never empty. */
export const tagList = z.array(z.string().trim().min(1).max(100)).max(50);

/** A place: a name, or a point with an optional name. */
export const placeInput = z.union([
  z.string().max(300),
  z.object({
    name: z.string().max(300).optional(),
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
  }),
]);

export type PlaceInput = z.infer<typeof placeInput>;

/** A place as stored (a GeoJSON point when coordinates were given). */
export function placeOf(loc: PlaceInput) {
  return typeof loc === 'string'
    ? { name: loc }
    : { name: loc.name, type: 'Point', coordinates: [loc.lon, loc.lat] };
}

/** The text fields of a markdown source: `source` and `content` are two spellings of one field. */
export interface MarkdownInput {
  source?: string | undefined;
  content?: string | undefined;
}

/** The source given, whichever spelling; undefined when neither was. */
export function sourceOf(o: MarkdownInput): string | undefined {
  return o.source ?? o.content;
}

/** `source` as stored with its rendered, sanitised `body` (the only HTML clients get from us). */
export function rendered(source: string): { source: Source; body: string } {
  return { source: { content: source, mediaType: 'text/markdown' }, body: renderMarkdown(source) };
}

/** A summary unless one was given: the source's opening as plain text. */
export function summaryOf(source: string): string {
  return source ? plainText(source) : '';
}

/** Who may read, reply and react: canonical audiences, resolved and authorised by the service. */
export interface Addressing {
  to: string;
  canReply: string;
  canReact: string;
}

/** Where a new document lives: its minted id, its author's copy, its server and public URL. */
export interface Origin {
  id: string;
  author: ActorRef & { id: string };
  /** `@<domain>` */
  server: string;
  publicUrl: string;
}

/** A field name under the request's prefix (`object.href` for POST /outbox, `href` for admin bodies). */
export function fieldName(prefix: string, field: string): string {
  return prefix ? `${prefix}.${field}` : field;
}

/** The 400 a document rule gives, naming its field. */
export function invalid(prefix: string, field: string, message: string): BadRequest {
  return new BadRequest(`${fieldName(prefix, field)}: ${message}`);
}

/** Copies the keys that were given (so an absent key never clears a field). */
export function given<T extends object>(o: T, keys: ReadonlyArray<keyof T>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k as string] = o[k];
  return out;
}
