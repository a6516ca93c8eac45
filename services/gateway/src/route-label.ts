/**
 * The gateway's `route` label on HTTP metrics: its own routes by path, anything else by the
 * service the routing table sends it to (`proxy:social`). Per-template detail is on the services'
 * own metrics; the edge never labels by raw URL, so its label set stays bounded.
 */
import type { Request } from 'express';
import { serviceFor } from '@agora/common/routing';

const OWN = new Set(['/health', '/__routes']);

export function edgeRouteOf(req: Request): string {
  const path = (req.originalUrl ?? req.url).split('?')[0] ?? '/';
  return OWN.has(path) ? path : `proxy:${serviceFor(path)}`;
}
