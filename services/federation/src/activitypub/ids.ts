/**
 * Two id forms, one identity (docs/federation.md, "ActivityPub"). Inside this API an actor is
 * `@alice@domain` and a post `post:…@domain`; on the ActivityPub wire each is the URL that
 * answers it. Local ids map to URLs by rule (`/ap/users/<name>`, `/ap/actor` for the server,
 * `/ap/objects/<id>`); remote actors met by URL are named `@preferredUsername@host` and remote
 * objects `post:<hash of the URL>@host`, both remembered in the ActivityPub store so the way back
 * is a lookup. This module is the only place either conversion happens.
 */
import { createHash } from 'node:crypto';
import type { Config } from '@agora/common/config';
import type { ActivityPubStore } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';

export const AP_PREFIX = '/ap';

type Cfg = Pick<Config, 'publicUrl' | 'DOMAIN'>;

export function serverActorUrl(config: Cfg): string {
  return `${config.publicUrl}${AP_PREFIX}/actor`;
}

/** The URL of a local actor or object; undefined for ids of other servers. */
export function localUrlOf(config: Cfg, id: string): string | undefined {
  if (id === `@${config.DOMAIN}`) return serverActorUrl(config);
  const user = /^@([a-z0-9_]+)@(.+)$/i.exec(id);
  if (user) return user[2] === config.DOMAIN ? `${config.publicUrl}${AP_PREFIX}/users/${user[1]}` : undefined;
  const object = /^[a-z]+:[^@]+@(.+)$/.exec(id);
  if (object && object[1] === config.DOMAIN)
    return `${config.publicUrl}${AP_PREFIX}/objects/${encodeURIComponent(id)}`;
  return undefined;
}

/** The id in this API of one of this server's URLs; undefined for any other URL. */
export function localIdOf(config: Cfg, url: string): string | undefined {
  const base = `${config.publicUrl}${AP_PREFIX}/`;
  if (!url.startsWith(base)) return undefined;
  const rest = url.slice(base.length).split(/[?#]/)[0] ?? '';
  if (rest === 'actor') return `@${config.DOMAIN}`;
  const user = /^users\/([a-z0-9_]+)$/i.exec(rest);
  if (user) return `@${user[1]}@${config.DOMAIN}`;
  const object = /^objects\/([^/]+)$/.exec(rest);
  if (!object?.[1]) return undefined;
  const id = decodeURIComponent(object[1]);
  return id.endsWith(`@${config.DOMAIN}`) ? id : undefined;
}

/** The id this API gives a remote object known by its URL (stable: a hash of the URL). */
export function remoteObjectIdFor(url: string, kind = 'post'): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 24);
  return `${kind}:${hash}@${domainOf(url) ?? 'invalid'}`;
}

/** The handle of a remote actor: `@preferredUsername@host`. */
export function handleFor(preferredUsername: string, url: string): string {
  return `@${preferredUsername.toLowerCase()}@${domainOf(url) ?? 'invalid'}`;
}

export interface IdMap {
  /** A URL of the wire → the id in this API (remote actors must be known: resolve them first). */
  idOf(url: string): Promise<string | undefined>;
  /** An id of this API → its URL on the wire (local by rule, remote through the store). */
  urlOf(id: string): Promise<string | undefined>;
  /** A remote object's URL → its id here (`post:…`, `reply:…`, `react:…` by `kind`), remembered. */
  objectIdOf(url: string, kind?: string): Promise<string>;
}

export function idMap(config: Cfg, store: ActivityPubStore): IdMap {
  return {
    async idOf(url) {
      const local = localIdOf(config, url);
      if (local) return local;
      const actor = await store.remoteActor(url);
      if (actor) return actor.handle;
      return (await store.objectIdOf(url)) ?? undefined;
    },
    async urlOf(id) {
      const local = localUrlOf(config, id);
      if (local) return local;
      if (id.startsWith('@')) return (await store.remoteActorByHandle(id))?._id;
      return (await store.objectUrlOf(id)) ?? undefined;
    },
    async objectIdOf(url, kind = 'post') {
      const known = await store.objectIdOf(url);
      if (known) return known;
      const id = remoteObjectIdFor(url, kind);
      await store.putObject(id, url);
      return id;
    },
  };
}
