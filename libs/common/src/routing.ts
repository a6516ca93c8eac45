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

/** Parses `social=http://social:8080,admin=http://admin:8080` (SERVICE_URLS). */
export function parseServiceUrls(raw: string): Partial<Record<ServiceName, string>> {
  const out: Partial<Record<ServiceName, string>> = {};
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, url] = part.split('=');
    if (name && url && (SERVICE_NAMES as readonly string[]).includes(name))
      out[name as ServiceName] = url.replace(/\/+$/, '');
  }
  return out;
}
