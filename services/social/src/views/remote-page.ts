/**
 * A page of another server (spec 4.3 `GET /pages/:id?domain=`; docs/federation.md, "Remote
 * pages"): fetched from that server only when it is compatible (its NodeInfo says it is Agora or
 * speaks this protocol; otherwise 400, decisions.md §6) and not blocked (403), with a GET signed by
 * this server (the origin answers what this server may see) through the safe client. The answer
 * must be the page asked for (same id, or that slug with an id on that domain), its HTML is
 * sanitised again and its links kept only when http(s); it gains `originDomain`. Nothing is stored.
 * Errors map as lookups do (remote-lookup.ts): gone or not shown → 404, anything else → 502.
 */
import { sanitize } from '@agora/common/content';
import { BadRequest, NotFound, UpstreamError } from '@agora/common/errors';
import { domainOf, nodeInfoOf, originOf, signAsServer } from '@agora/common/federation';
import { withSafeUrls } from '@agora/common/validation';
import type { SocialContext } from '../context';
import { refuseBlocked } from '../federation/blocks';

const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

export async function fetchRemotePage(
  ctx: SocialContext,
  rawDomain: string,
  idOrSlug: string,
): Promise<Record<string, unknown>> {
  const domain = rawDomain.trim().toLowerCase();
  if (!DOMAIN.test(domain)) throw new BadRequest('domain: must be a domain name');
  const isId = idOrSlug.startsWith('page:');
  if (isId && domainOf(idOrSlug) !== domain) throw new BadRequest('id: not a page of that domain');
  await refuseBlocked(ctx, domain);
  const info = await nodeInfoOf(
    { fetch: ctx.federation.fetch, config: ctx.config, servers: ctx.stores.remoteServers },
    domain,
  );
  if (!info.compatible) throw new BadRequest(`domain: ${domain} is not a compatible server`);

  const url = `${originOf(ctx.config, domain)}/pages/${encodeURIComponent(idOrSlug)}`;
  const signed = await signAsServer(ctx, { method: 'GET', url });
  const res = await ctx.federation.fetch(url, { headers: { ...signed, accept: 'application/json' } });
  // Not shown to this server reads like missing, as this server answers its own (no oracle).
  if ([401, 403, 404, 410].includes(res.status)) throw new NotFound('Not found');
  if (res.status !== 200) throw new UpstreamError(502, `${domain} answered ${res.status}`);
  let item: unknown;
  try {
    item = (JSON.parse(res.body.toString('utf8')) as { item?: unknown }).item;
  } catch {
    throw new UpstreamError(502, `${domain} did not answer JSON`);
  }
  const page = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
  const id = typeof page.id === 'string' ? page.id : '';
  const matches = isId ? id === idOrSlug : page.slug === idOrSlug && domainOf(id) === domain;
  if (!matches || !id.startsWith('page:'))
    throw new UpstreamError(502, `${domain} did not answer with that page`);
  const out: Record<string, unknown> = { ...withSafeUrls(page), originDomain: domain };
  if (typeof out.body === 'string') out.body = sanitize(out.body);
  return out;
}
