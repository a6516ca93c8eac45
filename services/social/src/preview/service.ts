/**
 * Link previews (issue 12): the page is fetched through the SSRF-safe client (http/https only,
 * addresses checked where the socket connects and on every redirect, 10 s, 1 MB) with its own
 * policy: private, loopback, link-local and CGNAT targets are always refused for previews,
 * whatever FEDERATION_ALLOW_PRIVATE says, because the URL comes from a user. A target refused by
 * that policy answers exactly like one that does not resolve or does not answer: the empty card
 * (docs/security.md, SSRF: a different answer would tell which internal names exist). Results
 * (failures too) are cached, so a popular link is fetched once a day, a dead one once an hour.
 * Each user's previews are rate limited at the gateway (services/gateway/src/rate-limit.ts).
 */
import { createHash } from 'node:crypto';
import { createSafeFetch, SafeFetchError, type SafeFetch } from '@agora/common/federation';
import { BadRequest } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { extractPreview } from './og';

export const FRESH_MS = 24 * 3600 * 1000;
export const FAILURE_MS = 3600 * 1000;

export interface LinkPreview {
  url: string;
  title: string | null;
  summary: string | null;
  image: string | null;
  siteName: string | null;
  contentType: string | null;
}

const clients = new WeakMap<SocialContext, SafeFetch & { close(): void }>();

function clientOf(ctx: SocialContext) {
  let c = clients.get(ctx);
  if (!c) {
    c = createSafeFetch({
      allowPrivate: false,
      allowIps: ctx.config.LINK_PREVIEW_ALLOW_IPS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      hostMap: ctx.config.federationHostMap,
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
      maxRedirects: 3,
      userAgent: `Agora link preview (+${ctx.config.publicUrl})`,
    });
    clients.set(ctx, c);
  }
  return c;
}

export function closePreviewClient(ctx: SocialContext): void {
  clients.get(ctx)?.close();
  clients.delete(ctx);
}

export function previewTarget(raw: unknown): URL {
  if (typeof raw !== 'string' || !raw.trim()) throw new BadRequest('url: is required');
  if (raw.length > 2000) throw new BadRequest('url: at most 2000 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new BadRequest('url: must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BadRequest('url: must be an http(s) URL');
  if (url.username || url.password) throw new BadRequest('url: must not carry credentials');
  url.hash = '';
  return url;
}

function empty(url: string, siteName: string | null): LinkPreview {
  return { url, title: null, summary: null, image: null, siteName, contentType: null };
}

async function fetchPreview(
  ctx: SocialContext,
  url: URL,
): Promise<{ data: LinkPreview; failure: string | null }> {
  try {
    const res = await clientOf(ctx)(url.href, {
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
    });
    const contentType =
      String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase() || null;
    if (res.status < 200 || res.status >= 300)
      return { data: empty(url.href, url.hostname), failure: `status ${res.status}` };
    if (contentType !== 'text/html' && contentType !== 'application/xhtml+xml')
      return { data: { ...empty(res.url, url.hostname), contentType }, failure: null };
    const fields = extractPreview(res.body.toString('utf8'), res.url);
    return {
      data: { url: res.url, ...fields, siteName: fields.siteName ?? new URL(res.url).hostname, contentType },
      failure: null,
    };
  } catch (err) {
    // Every refusal and failure of the fetch, policy included, is the same empty card; the
    // reason stays in the cache record, never in the answer.
    if (err instanceof SafeFetchError) return { data: empty(url.href, url.hostname), failure: err.reason };
    throw err;
  }
}

export async function linkPreview(ctx: SocialContext, url: URL, now = Date.now()): Promise<LinkPreview> {
  const key = createHash('sha256').update(url.href).digest('hex');
  const cached = await ctx.stores.linkPreviews.get(key);
  if (cached?.data) {
    const age = now - new Date(cached.fetchedAt).getTime();
    if (age < (cached.failure ? FAILURE_MS : FRESH_MS)) return cached.data as unknown as LinkPreview;
  }
  const { data, failure } = await fetchPreview(ctx, url);
  await ctx.stores.linkPreviews.put(key, {
    url: url.href,
    data: data as unknown as Record<string, unknown>,
    failure,
    fetchedAt: new Date(now),
  });
  return data;
}
