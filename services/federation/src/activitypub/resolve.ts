/**
 * Remote ActivityPub actors: fetched by URL (their document must carry that id, an inbox on the
 * same host and a preferredUsername), found by handle through WebFinger, and remembered with the
 * handle this API names them by (ids.ts). Fetches go through the safe client (host map, private
 * addresses refused unless allowed) and are signed as this server's actor, for peers that only
 * answer signed GETs (Mastodon's authorized fetch).
 */
import { BadRequest } from '@agora/common/errors';
import { DuplicateKeyError, type RemoteActorRecord } from '@agora/common/db';
import { domainOf, originOf, signRequest } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { handleFor, serverActorUrl } from './ids';
import { AP_ACCEPT } from './vocab';
import { type Json, isObject } from './json';

const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);
const REFRESH_MS = 24 * 3600_000;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 2000 ? v : undefined);

/**
 * GETs an ActivityPub document, signed as the server actor: the status (0 when another server
 * answered, after a redirect), and the document when a JSON object answers 200.
 */
export async function fetchAnswer(
  ctx: FederationContext,
  url: string,
  accept = AP_ACCEPT,
): Promise<{ status: number; doc?: Json }> {
  const privateKeyPem = await ctx.stores.settings.get<string>('privateKey');
  const signed = privateKeyPem
    ? signRequest({ method: 'GET', url, keyId: `${serverActorUrl(ctx.config)}#main-key`, privateKeyPem })
    : {};
  const res = await ctx.federation.fetch(url, { headers: { ...signed, accept } });
  if (domainOf(res.url) !== domainOf(url)) return { status: 0 };
  if (res.status !== 200) return { status: res.status };
  try {
    const doc: unknown = JSON.parse(res.body.toString('utf8'));
    return isObject(doc) ? { status: res.status, doc } : { status: res.status };
  } catch {
    return { status: res.status };
  }
}

/** GETs an ActivityPub document, signed as the server actor; undefined unless a JSON object answers 200. */
export async function fetchDocument(
  ctx: FederationContext,
  url: string,
  accept = AP_ACCEPT,
): Promise<Json | undefined> {
  return (await fetchAnswer(ctx, url, accept)).doc;
}

/** Reads an actor document into the record kept of it; undefined when it is not a usable actor. */
export function actorRecordOf(doc: Json, url: string): RemoteActorRecord | undefined {
  const type = Array.isArray(doc.type) ? str(doc.type[0]) : str(doc.type);
  const inbox = str(doc.inbox);
  const name = str(doc.preferredUsername);
  if (doc.id !== url || !type || !ACTOR_TYPES.has(type) || !inbox || !name) return undefined;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name) || domainOf(inbox) !== domainOf(url)) return undefined;
  const endpoints = isObject(doc.endpoints) ? doc.endpoints : {};
  const shared = str(endpoints.sharedInbox);
  return {
    _id: url,
    handle: handleFor(name, url),
    type,
    name: str(doc.name)?.slice(0, 200) ?? null,
    inbox,
    sharedInbox: shared && domainOf(shared) === domainOf(url) ? shared : null,
    followers: str(doc.followers) ?? null,
    fetchedAt: new Date(),
  };
}

/** The remote actor at `url`, from the store when fresh, else fetched and remembered. */
export async function resolveActor(
  ctx: FederationContext,
  url: string,
): Promise<RemoteActorRecord | undefined> {
  const known = await ctx.stores.activityPub.remoteActor(url);
  if (known && Date.now() - known.fetchedAt.getTime() < REFRESH_MS) return known;
  const doc = await fetchDocument(ctx, url).catch(() => undefined);
  const record = doc && actorRecordOf(doc, url);
  if (!record) return known ?? undefined;
  try {
    return await ctx.stores.activityPub.putRemoteActor(record);
  } catch (err) {
    // Another URL holds that handle already (an actor that moved): the first one keeps it.
    if (err instanceof DuplicateKeyError) return undefined;
    throw err;
  }
}

/** `@carol@peer.test` → its actor, through WebFinger on the handle's domain. */
export async function resolveHandle(
  ctx: FederationContext,
  handle: string,
): Promise<RemoteActorRecord | undefined> {
  const known = await ctx.stores.activityPub.remoteActorByHandle(handle);
  if (known) return known;
  const m = /^@?([^@\s]+)@([^@\s/]+)$/.exec(handle);
  if (!m?.[1] || !m[2]) throw new BadRequest('handle: must be @user@domain');
  const resource = `acct:${m[1]}@${m[2]}`;
  const url = `${originOf(ctx.config, m[2])}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const jrd = await fetchDocument(ctx, url, 'application/jrd+json, application/json').catch(() => undefined);
  const links = Array.isArray(jrd?.links) ? jrd.links.filter(isObject) : [];
  const self = links.find(
    (l) => l.rel === 'self' && typeof l.type === 'string' && /activity\+json|ld\+json/.test(l.type),
  );
  const href = str(self?.href);
  if (!href || domainOf(href) !== m[2].toLowerCase()) return undefined;
  return resolveActor(ctx, href);
}
