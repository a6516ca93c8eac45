/**
 * The remote half of object lookup (spec 1.8, decisions.md §6): ask the object's origin server
 * for it with a request signed by this server (so the origin answers what this server may see),
 * through the safe outbound client. The answer is trusted only for its own id: it must be the
 * object asked for, and its HTML is sanitised again here. Nothing is stored (no shadow copies
 * keyed by what a peer says).
 */
import { sanitize } from '@agora/common/content';
import { parseId } from '@agora/common/db';
import { UpstreamError } from '@agora/common/errors';
import { originOf, signAsServer } from '@agora/common/federation';
import type { SocialContext } from '../context';
import { withSafeUrls } from '@agora/common/validation';
import { fetchActivityPub } from './remote-ap';

const PATHS: Record<string, string> = {
  post: 'posts',
  circle: 'circles',
  group: 'groups',
  page: 'pages',
  bookmark: 'bookmarks',
};

function pathOf(id: string): string | undefined {
  const p = parseId(id);
  if (p.type === 'User') return `/users/${encodeURIComponent(id)}`;
  if (p.type === 'Object' && p.kind && Object.hasOwn(PATHS, p.kind))
    return `/${PATHS[p.kind]}/${encodeURIComponent(id)}`;
  return undefined;
}

export async function fetchRemote(ctx: SocialContext, id: string): Promise<Record<string, unknown> | null> {
  // An actor or post met on the ActivityPub wire is asked of its own URL, as ActivityPub.
  const ap = await fetchActivityPub(ctx, id);
  if (ap !== undefined) return ap;
  const domain = parseId(id).domain;
  const path = pathOf(id);
  if (!domain || !path) return null;
  const url = `${originOf(ctx.config, domain)}${path}`;
  const signed = await signAsServer(ctx, { method: 'GET', url });
  const res = await ctx.federation.fetch(url, { headers: { ...signed, accept: 'application/json' } });
  if (res.status === 404 || res.status === 410) return null;
  // Not shown to this server reads like missing, as this server answers its own (no oracle).
  if (res.status === 401 || res.status === 403) return null;
  if (res.status !== 200) throw new UpstreamError(502, `${domain} answered ${res.status}`);
  let item: unknown;
  try {
    // Detail routes answer `{ item }`; GET /posts/:id answers the post itself.
    const body = JSON.parse(res.body.toString('utf8')) as { item?: unknown };
    item = typeof body === 'object' && body !== null && body.item !== undefined ? body.item : body;
  } catch {
    throw new UpstreamError(502, `${domain} did not answer JSON`);
  }
  if (typeof item !== 'object' || item === null || (item as { id?: unknown }).id !== id)
    throw new UpstreamError(502, `${domain} did not answer with ${id}`);
  const out: Record<string, unknown> = {
    ...withSafeUrls(item as Record<string, unknown>),
    originDomain: domain,
  };
  if (typeof out.body === 'string') out.body = sanitize(out.body);
  return out;
}
