/**
 * What another server says it is (docs/federation.md, "Compatible servers"): its NodeInfo, found
 * through `/.well-known/nodeinfo` (the link of the newest 2.x schema, which must point at the same
 * domain), read through the safe client. A server is *compatible* (decisions.md §6) when it names
 * this software (`software.name` `agora`) or this server-to-server protocol
 * (`metadata.federation.protocol` `agora`, which other implementations of the protocol may set).
 * The answer is cached on the server's row for FEDERATION_NODEINFO_REFRESH_HOURS; a failed read is
 * recorded and tried again after an hour at most, keeping what an earlier read said.
 */
import type { Config } from '../config';
import { UpstreamError } from '../errors';
import { originOf } from './peers';
import type { SafeFetch } from './safe-fetch';

export const AGORA_SOFTWARE = 'agora';
/** The name of this server-to-server protocol in `metadata.federation.protocol`. */
export const AGORA_PROTOCOL = 'agora';
export const AGORA_PROTOCOL_VERSION = 1;

export interface NodeInfo {
  software: { name: string; version: string } | null;
  protocols: string[];
  compatible: boolean;
}

export interface StoredNodeInfo extends NodeInfo {
  fetchedAt: Date;
  refreshAt: Date;
  error: string | null;
}

const RETRY_FAILED_MS = 3600_000;
const SCHEMA = /^https?:\/\/nodeinfo\.diaspora\.software\/ns\/schema\/2\.(\d+)$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : undefined);

async function getJson(fetch: SafeFetch, url: string, domain: string): Promise<Json> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (res.status !== 200)
    throw new UpstreamError(502, `${domain} answered ${res.status} for ${new URL(url).pathname}`);
  try {
    const doc: unknown = JSON.parse(res.body.toString('utf8'));
    if (isObject(doc)) return doc;
  } catch {
    // reported below
  }
  throw new UpstreamError(502, `${domain} did not answer a JSON object for ${new URL(url).pathname}`);
}

/** Reads a server's NodeInfo; throws UpstreamError (or the safe client's error) saying why not. */
export async function fetchNodeInfo(fetch: SafeFetch, config: Config, domain: string): Promise<NodeInfo> {
  const index = await getJson(fetch, `${originOf(config, domain)}/.well-known/nodeinfo`, domain);
  const links = Array.isArray(index.links) ? index.links.filter(isObject) : [];
  const best = links
    .map((l) => ({ href: text(l.href, 2000), minor: SCHEMA.exec(text(l.rel, 200) ?? '')?.[1] }))
    .filter((l): l is { href: string; minor: string } => !!l.href && l.minor !== undefined)
    .sort((a, b) => Number(b.minor) - Number(a.minor))[0];
  if (!best) throw new UpstreamError(502, `${domain} links no NodeInfo 2.x document`);
  let href: URL;
  try {
    href = new URL(best.href);
  } catch {
    throw new UpstreamError(502, `${domain} links a NodeInfo document at no valid URL`);
  }
  // The document must be the server's own: one domain cannot speak for another.
  if (href.host.toLowerCase() !== domain.toLowerCase() || !/^https?:$/.test(href.protocol))
    throw new UpstreamError(502, `${domain} links a NodeInfo document on another host`);
  const doc = await getJson(fetch, `${originOf(config, domain)}${href.pathname}${href.search}`, domain);
  const sw = isObject(doc.software) ? doc.software : {};
  const name = text(sw.name, 100)?.toLowerCase();
  const software = name ? { name, version: text(sw.version, 100) ?? '' } : null;
  const protocols = (Array.isArray(doc.protocols) ? doc.protocols : [])
    .map((p) => text(p, 50))
    .filter((p): p is string => !!p)
    .slice(0, 20);
  const metadata = isObject(doc.metadata) ? doc.metadata : {};
  const federation = isObject(metadata.federation) ? metadata.federation : {};
  const compatible = name === AGORA_SOFTWARE || federation.protocol === AGORA_PROTOCOL;
  return { software, protocols, compatible };
}

export interface NodeInfoCache {
  byDomain(domain: string): Promise<{ nodeinfo?: StoredNodeInfo | null } | null>;
  recordNodeInfo(
    domain: string,
    info: Omit<StoredNodeInfo, 'error'> | { error: string; fetchedAt: Date; refreshAt: Date },
  ): Promise<void>;
}

/**
 * A server's NodeInfo from its row while fresh, else read again and recorded. Never throws for
 * the server's failings: a failed read is recorded (`error`) and what was known before, if
 * anything, is answered with it (`compatible` false when nothing ever was).
 */
/** Reads in flight, by domain: callers asking at once share one read (one process). */
const reading = new Map<string, Promise<StoredNodeInfo>>();

export async function nodeInfoOf(
  deps: { fetch: SafeFetch; config: Config; servers: NodeInfoCache },
  domain: string,
  now = new Date(),
): Promise<StoredNodeInfo> {
  const known = (await deps.servers.byDomain(domain))?.nodeinfo;
  if (known && known.refreshAt.getTime() > now.getTime()) return known;
  let read = reading.get(domain);
  if (!read) {
    read = readAndRecord(deps, domain, known ?? undefined, now).finally(() => reading.delete(domain));
    reading.set(domain, read);
  }
  return read;
}

async function readAndRecord(
  deps: { fetch: SafeFetch; config: Config; servers: NodeInfoCache },
  domain: string,
  known: StoredNodeInfo | undefined,
  now: Date,
): Promise<StoredNodeInfo> {
  const refreshMs = deps.config.FEDERATION_NODEINFO_REFRESH_HOURS * 3600_000;
  try {
    const info = await fetchNodeInfo(deps.fetch, deps.config, domain);
    const stored = { ...info, fetchedAt: now, refreshAt: new Date(now.getTime() + refreshMs) };
    await deps.servers.recordNodeInfo(domain, stored);
    return { ...stored, error: null };
  } catch (err) {
    const error = (err as Error).message.slice(0, 300);
    const refreshAt = new Date(now.getTime() + Math.min(refreshMs, RETRY_FAILED_MS));
    await deps.servers.recordNodeInfo(domain, { error, fetchedAt: now, refreshAt });
    return {
      software: known?.software ?? null,
      protocols: known?.protocols ?? [],
      compatible: known?.compatible ?? false,
      fetchedAt: now,
      refreshAt,
      error,
    };
  }
}
