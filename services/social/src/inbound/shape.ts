/**
 * Reading another server's activity (behaviour-notes §5.4, narrowed): the object's id, whether
 * it is public, its HTML (sanitised here, never trusted) and its date. Agora peers and
 * ActivityPub servers both fit: `to`/`cc` may be strings or arrays, `@public` or the AS Public
 * collection; `content` is HTML, `source.content` markdown.
 */
import { plainText, renderMarkdown, sanitize } from '@agora/common/content';
import { domainOf } from '@agora/common/federation';

const PUBLIC = new Set(['@public', 'https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public']);
export const POST_TYPES = new Set(['Note', 'Article']);

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectId(v: unknown): string | undefined {
  const id = isObject(v) ? v.id : v;
  return typeof id === 'string' && id.length <= 2000 ? id : undefined;
}

/** An id is the signer's when it lives on the signer's domain. */
export function belongsTo(id: string | undefined, domain: string): id is string {
  return !!id && domainOf(id) === domain;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

export function isPublic(activity: Json, object: Json): boolean {
  return [activity.to, activity.cc, object.to, object.cc].flatMap(list).some((t) => PUBLIC.has(String(t)));
}

/** Sanitised HTML and a plain-text summary of the object's content. */
export function contentOf(object: Json): { body: string; text: string; mediaType: string } {
  const source = isObject(object.source) ? object.source : undefined;
  if (typeof object.content === 'string') {
    const body = sanitize(object.content.slice(0, 100_000));
    return { body, text: plainText(body), mediaType: 'text/html' };
  }
  const md = typeof source?.content === 'string' ? source.content.slice(0, 100_000) : '';
  return { body: renderMarkdown(md), text: plainText(md), mediaType: 'text/markdown' };
}

/** The object's publication date, never in the future. */
export function publishedOf(object: Json, now: Date): Date {
  const raw = typeof object.published === 'string' ? new Date(object.published) : undefined;
  return raw && !Number.isNaN(raw.getTime()) && raw < now ? raw : now;
}
