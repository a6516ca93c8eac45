/**
 * One pull from one server (decisions.md §6): a signed `GET /outbox?from=&to=&since=` through the
 * safe client. Only what belongs to the answering server is taken: items whose id and author are
 * on its domain, and tombstones of ids on its domain. Each public item becomes an inbound Create,
 * and so does each item to one of its circles that the answer's `recipients` say users of this
 * server (or this server) may read, naming them as a push would (audience.ts on the social side
 * decides the rest); each tombstone an inbound Delete of the copy held here. They are recorded and
 * processed exactly like pushes to the inbox (so a post both pushed and pulled is kept once).
 */
import { wireSensitivity } from '@agora/common/content';
import { UpstreamError } from '@agora/common/errors';
import { domainOf, originOf, signAsServer } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { recordInbound } from '../inbox/accept';
import type { PollTarget } from './targets';

type Item = Record<string, unknown>;

function isPublicItem(item: Item): boolean {
  return item.to === '@public' || item.visibility === 'Public';
}

/**
 * Who of this server the answer says may read a non-public item, with its circle: as a push
 * names them (`scope`: the ids this pull asked about, the only ones the answer speaks for).
 */
function addressedOf(ctx: FederationContext, target: PollTarget, page: Item, item: Item): Item | null {
  const entries = Array.isArray(page.recipients) ? (page.recipients as unknown[]) : [];
  const entry = entries.find(
    (e): e is Item => typeof e === 'object' && e !== null && (e as Item).itemId === item.id,
  );
  const own = ctx.config.DOMAIN;
  const to = Array.isArray(entry?.to) ? (entry.to as unknown[]) : [];
  const recipients = to.filter(
    (id): id is string => typeof id === 'string' && target.to.includes(id) && domainOf(id) === own,
  );
  if (!recipients.length || typeof item.to !== 'string' || !entry?.circle) return null;
  return { to: [item.to], recipients, circle: entry.circle, scope: target.to };
}

function createOf(item: Item, domain: string, addressed: Item | null): Item {
  const author =
    item.attributedTo && typeof item.attributedTo === 'object' ? (item.attributedTo as Item) : {};
  return {
    id: `${String(item.id)}#pulled`,
    type: 'Create',
    actorId: item.actorId,
    actor: { id: item.actorId, ...(typeof author.name === 'string' ? { name: author.name } : {}) },
    to: ['@public'],
    ...(addressed ?? {}),
    object: {
      id: item.id,
      type: item.type,
      attributedTo: item.actorId,
      content: typeof item.body === 'string' ? item.body : '',
      published: item.publishedAt ?? item.published,
      url: typeof item.url === 'string' ? item.url : undefined,
      // A pulled post keeps its warning, flag and described media as a pushed one (ADR 0021).
      ...wireSensitivity(item),
      ...(addressed ? { to: addressed.to } : {}),
    },
    pulledFrom: domain,
  };
}

/**
 * Pages of one pull at most: a server whose authors wrote more than this many posts since the
 * last pull gets the newest ones now, and the rest reach local readers through the inbox only.
 */
export const MAX_PULL_PAGES = 20;

async function fetchPage(
  ctx: FederationContext,
  target: PollTarget,
  since: Date | null,
  before?: string,
): Promise<Item> {
  const params = new URLSearchParams();
  for (const id of target.from) params.append('from', id);
  for (const id of target.to) params.append('to', id);
  if (since) params.set('since', since.toISOString());
  if (before) params.set('before', before);
  params.set('limit', '100');
  const url = `${originOf(ctx.config, target.domain)}/outbox?${params.toString()}`;
  const signed = await signAsServer(ctx, { method: 'GET', url });
  const res = await ctx.federation.fetch(url, { headers: { ...signed, accept: 'application/json' } });
  if (res.status !== 200) throw new UpstreamError(502, `${target.domain} answered ${res.status}`);
  try {
    return JSON.parse(res.body.toString('utf8')) as Item;
  } catch {
    throw new UpstreamError(502, `${target.domain} did not answer JSON`);
  }
}

/**
 * Pulls once: the first page, then the pages its `next` cursors name (handed back as `before`,
 * same `since`), so more posts than one page holds are not skipped. A peer that ignores `before`
 * (an older version) answers the same `next` again: that ends the pull. Tombstones come with
 * every page alike and are taken from the first. Returns how many activities were recorded.
 */
export async function pullFrom(
  ctx: FederationContext,
  target: PollTarget,
  since: Date | null,
): Promise<number> {
  let page = await fetchPage(ctx, target, since);
  let recorded = await recordPage(ctx, target, page, true);
  const seen = new Set<string>();
  for (let n = 1; n < MAX_PULL_PAGES; n++) {
    const next = page.next;
    if (typeof next !== 'string' || !next || next.length > 4096 || seen.has(next)) break;
    seen.add(next);
    page = await fetchPage(ctx, target, since, next);
    recorded += await recordPage(ctx, target, page, false);
  }
  return recorded;
}

/** Records one page's items (and, for the first page, its tombstones); how many were new. */
async function recordPage(
  ctx: FederationContext,
  target: PollTarget,
  page: Item,
  first: boolean,
): Promise<number> {
  const ours = (id: unknown): id is string => typeof id === 'string' && domainOf(id) === target.domain;
  let recorded = 0;
  const record = async (activity: Item) => {
    const out = await recordInbound(ctx, {
      type: String(activity.type),
      remoteId: String(activity.id),
      actorId: String(activity.actorId),
      signerDomain: target.domain,
      raw: JSON.stringify(activity),
      via: 'pull',
    });
    if (!out.duplicate) recorded++;
  };
  const items = Array.isArray(page.items) ? (page.items as unknown[]) : [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const it = item as Item;
    if (!ours(it.id) || !ours(it.actorId)) continue;
    const addressed = isPublicItem(it) ? null : addressedOf(ctx, target, page, it);
    if (!isPublicItem(it) && !addressed) continue;
    await record(createOf(it, target.domain, addressed));
  }
  const tombstones = first && Array.isArray(page.tombstones) ? (page.tombstones as unknown[]) : [];
  for (const id of tombstones) {
    if (!ours(id)) continue;
    const copy = await ctx.stores.posts.remoteCopy(id);
    if (copy?.originDomain === target.domain)
      await record({ id: `${id}#pulled-delete`, type: 'Delete', actorId: copy.actorId, object: id });
  }
  return recorded;
}
