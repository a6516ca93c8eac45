/**
 * Remote lookups of ActivityPub objects (spec 1.8 `mode=remote`, docs/federation.md "Remote
 * lookups"): an actor met by URL (`@carol@peer.test`, known in `ap_remote_actors`) or a post held
 * by URL (`post:<hash>@peer.test`) is asked of its own URL as ActivityPub, not of the spec's
 * `/users/<id>`, and read into this API's shape. The answer must carry the URL asked for; its HTML
 * is sanitised; only a public post is read. Nothing is stored.
 */
import { sanitize } from '@agora/common/content';
import { parseId } from '@agora/common/db';
import { UpstreamError } from '@agora/common/errors';
import { signAsServer } from '@agora/common/federation';
import type { SocialContext } from '../context';

type Json = Record<string, unknown>;
const AP_ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const PUBLIC = new Set(['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public']);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 2000): string | undefined =>
  typeof v === 'string' && v.length <= max ? v : undefined;
const httpUrl = (v: unknown): string | null => {
  const s = str(isObject(v) ? v.url : v);
  return s && /^https?:\/\//.test(s) ? s : null;
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** The URL an id of this API stands for on the ActivityPub wire; undefined when it is not such an id. */
async function urlOf(ctx: SocialContext, id: string): Promise<string | undefined> {
  const p = parseId(id);
  if (p.type === 'User') return (await ctx.stores.activityPub.remoteActorByHandle(id))?._id;
  if (p.type === 'Object' && p.kind === 'post')
    return (await ctx.stores.activityPub.objectUrlOf(id)) ?? undefined;
  return undefined;
}

async function fetchJson(ctx: SocialContext, url: string): Promise<Json | null> {
  const signed = await signAsServer(ctx, { method: 'GET', url });
  const res = await ctx.federation.fetch(url, { headers: { ...signed, accept: AP_ACCEPT } });
  const domain = parseId(url).domain;
  if ([401, 403, 404, 410].includes(res.status)) return null;
  if (res.status !== 200) throw new UpstreamError(502, `${domain} answered ${res.status}`);
  let doc: unknown;
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new UpstreamError(502, `${domain} did not answer JSON`);
  }
  if (!isObject(doc) || doc.id !== url) throw new UpstreamError(502, `${domain} did not answer with ${url}`);
  return doc;
}

function actorItem(id: string, doc: Json, domain: string): Json {
  const name = str(doc.name, 200) ?? str(doc.preferredUsername, 64) ?? id;
  return {
    id,
    type: str(doc.type, 64) ?? 'Person',
    objectType: 'User',
    username: str(doc.preferredUsername, 64) ?? null,
    name,
    summary: typeof doc.summary === 'string' ? sanitize(doc.summary.slice(0, 10_000)) : null,
    icon: httpUrl(doc.icon),
    url: httpUrl(doc.url) ?? str(doc.id),
    originDomain: domain,
  };
}

async function postItem(ctx: SocialContext, id: string, doc: Json, domain: string): Promise<Json | null> {
  if (![doc.to, doc.cc].flatMap(list).some((t) => PUBLIC.has(String(t)))) return null;
  const author = str(isObject(doc.attributedTo) ? doc.attributedTo.id : doc.attributedTo);
  const actor = author ? await ctx.stores.activityPub.remoteActor(author) : null;
  return {
    id,
    type: doc.type === 'Article' ? 'Article' : 'Note',
    objectType: 'Post',
    actorId: actor?.handle ?? null,
    body: typeof doc.content === 'string' ? sanitize(doc.content.slice(0, 100_000)) : '',
    url: httpUrl(doc.url) ?? str(doc.id),
    publishedAt: str(doc.published, 64) ?? null,
    to: '@public',
    originDomain: domain,
  };
}

/** The object as its ActivityPub server answers it; undefined when `id` is not an ActivityPub id. */
export async function fetchActivityPub(ctx: SocialContext, id: string): Promise<Json | null | undefined> {
  const url = await urlOf(ctx, id);
  if (!url) return undefined;
  const doc = await fetchJson(ctx, url);
  if (!doc) return null;
  const domain = parseId(id).domain ?? '';
  return parseId(id).type === 'User' ? actorItem(id, doc, domain) : postItem(ctx, id, doc, domain);
}

/** The state of the viewer's Follow of a remote ActivityPub actor: pending until it answers. */
export async function followStateOf(
  ctx: SocialContext,
  viewerId: string | null | undefined,
  id: string,
): Promise<string | undefined> {
  if (!viewerId || parseId(id).type !== 'User') return undefined;
  const actor = await ctx.stores.activityPub.remoteActorByHandle(id);
  if (!actor) return undefined;
  return (await ctx.stores.activityPub.follow(viewerId, actor._id))?.state;
}
