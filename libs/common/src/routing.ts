/**
 * The routing table: which service owns which path. Used by the gateway to proxy and by
 * GET /__routes to ask every service for its routes. First match wins.
 */
export const SERVICE_NAMES = ['social', 'admin', 'federation', 'notifications'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RouteRule {
  service: ServiceName;
  /** Matched against the path (without query). */
  pattern: RegExp;
}

export const ROUTING_TABLE: RouteRule[] = [
  { service: 'admin', pattern: /^\/admin(\/|$)/ },
  { service: 'notifications', pattern: /^\/notifications(\/|$)/ },
  { service: 'notifications', pattern: /^\/users\/[^/]+\/notifications(\/|$)/ },
  { service: 'federation', pattern: /^\/inbox\/?$/ },
  { service: 'federation', pattern: /^\/users\/[^/]+\/inbox\/?$/ },
  { service: 'federation', pattern: /^\/groups\/[^/]+\/inbox\/?$/ },
  { service: 'federation', pattern: /^\/\.well-known(\/|$)/ },
  { service: 'federation', pattern: /^\/nodeinfo(\/|$)/ },
  // ActivityPub documents (actors, collections, objects): docs/federation.md, "ActivityPub".
  { service: 'federation', pattern: /^\/ap(\/|$)/ },
  // Everything else (users, auth, register, posts, circles, groups, pages, bookmarks, outbox, ...).
  { service: 'social', pattern: /^\// },
];

export function serviceFor(path: string): ServiceName {
  for (const rule of ROUTING_TABLE) if (rule.pattern.test(path)) return rule.service;
  return 'social';
}

/**
 * Parses SERVICE_URLS: `social=http://social:8080,admin=http://admin:8080`. A service may have
 * several replicas, named by repeating it (`social=http://a:1,social=http://b:2`) or with `|`
 * (`social=http://a:1|http://b:2`); the gateway balances over them (services/gateway/src/balance.ts).
 */
export function parseServiceUrls(raw: string): Partial<Record<ServiceName, string[]>> {
  const out: Partial<Record<ServiceName, string[]>> = {};
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = part.indexOf('=');
    const name = part.slice(0, at);
    if (at <= 0 || !(SERVICE_NAMES as readonly string[]).includes(name)) continue;
    const urls = part
      .slice(at + 1)
      .split('|')
      .map((u) => u.trim().replace(/\/+$/, ''))
      .filter(Boolean);
    const list = (out[name as ServiceName] ??= []);
    for (const u of urls) if (!list.includes(u)) list.push(u);
  }
  return out;
}
