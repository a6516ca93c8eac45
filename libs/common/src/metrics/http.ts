/**
 * HTTP rate, errors and duration by route. The route label is a template (`/posts/:id`), the
 * gateway's upstream (`proxy:social`) or `unmatched`, never a raw URL: the label set stays bounded
 * whatever the traffic.
 */
import type { Request, RequestHandler } from 'express';
import { family } from './registry';

export type RouteOf = (req: Request) => string;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function httpMetrics(service: string, routeOf: RouteOf): RequestHandler {
  const requests = family('counter', 'agora_http_requests_total', {
    help: 'HTTP requests answered, by service, method, route template and status code.',
    labelNames: ['service', 'method', 'route', 'code'],
  });
  const duration = family('histogram', 'agora_http_request_duration_seconds', {
    help: 'Time from request to the end of the response, by service, method and route template.',
    labelNames: ['service', 'method', 'route'],
    buckets: SECONDS,
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeOf(req);
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      requests.inc({ service, method, route, code: String(res.statusCode) });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      duration.observe({ service, method, route }, seconds);
    });
    next();
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface RouteTemplate {
  methods: string[];
  path: string;
}

/**
 * The template of a request among a service's listed routes (GET /__routes): literal segments
 * win over parameters (`/users/me` before `/users/:id`); anything else is `unmatched`.
 */
export function templateRouteOf(templates: () => RouteTemplate[]): RouteOf {
  let compiled: Array<{ methods: Set<string>; re: RegExp; path: string; params: number }> | undefined;
  const compile = () =>
    templates()
      .map((t) => ({
        methods: new Set(t.methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))),
        re: new RegExp(`^${t.path.split('/').map(segment).join('/')}/?$`),
        path: t.path,
        params: (t.path.match(/[:*]/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  return (req) => {
    compiled ??= compile();
    const path = (req.originalUrl ?? req.url).split('?')[0] ?? '/';
    const hit = compiled.find((t) => t.methods.has(req.method) && t.re.test(path));
    return hit?.path ?? 'unmatched';
  };
}

function segment(s: string): string {
  if (s.startsWith(':')) return '[^/]+';
  if (s.startsWith('*')) return '.*';
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
