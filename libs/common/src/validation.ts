/** Input validation for handlers: zod, and a 400 whose message names the offending field. */
import { z } from 'zod';
import { BadRequest } from './errors';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  throw new BadRequest(`${path || 'body'}: ${issue.message}`);
}

/** A string id of an object or user: no operators, no objects, bounded. */
export const idString = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[^$\s{}]+$/, 'must be an id');

/** Longest URL any URL-bearing field stores. */
export const MAX_URL_LENGTH = 2000;

/** True for an absolute http(s) URL with a host, within MAX_URL_LENGTH. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || /\s/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The one URL schema (docs/security.md, "URL fields"): every field a client renders as a link or
 * an image (`href`, `url`, `urls`, and through mediaRef `image`, `icon`, `featuredImage`), from
 * POST /outbox and from other servers alike. Only http and https: never `javascript:`, `data:`
 * or `vbscript:`.
 */
export const httpUrl = z.string().max(MAX_URL_LENGTH).refine(isHttpUrl, 'must be an http or https URL');

/** This server's own media: a `/files/...` path or a file id (`file:<hex>@<domain>`). */
const LOCAL_MEDIA = /^(\/(?![/\\])[^\s]*|file:[a-z0-9]+@[^\s@/]+)$/;

export function isMediaRef(value: unknown): value is string {
  return (
    isHttpUrl(value) ||
    (typeof value === 'string' && value.length <= MAX_URL_LENGTH && LOCAL_MEDIA.test(value))
  );
}

/** An image field: an http(s) URL (the URL schema above) or this server's own media. */
export const mediaRef = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(isMediaRef, 'must be an http or https URL, a /path or a file id');

const URL_FIELDS = ['href', 'url', 'image', 'icon', 'featuredImage'] as const;

/**
 * Another server's object as this server will show it: every URL-bearing field (top level and
 * the `actor` and `profile` copies) that is not an http(s) URL is dropped. Inbound federation gets the same URL
 * schema as POST /outbox.
 */
export function withSafeUrls(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...item };
  for (const f of URL_FIELDS) if (f in out && out[f] != null && !isHttpUrl(out[f])) delete out[f];
  if (Array.isArray(out.urls)) out.urls = out.urls.filter(isHttpUrl);
  for (const nested of ['actor', 'profile'] as const) {
    const v = out[nested];
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      out[nested] = withSafeUrls(v as Record<string, unknown>);
  }
  return out;
}
