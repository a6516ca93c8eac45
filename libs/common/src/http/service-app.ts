/**
 * Builds a domain service's Express app: request id, token verification, the route-tree body
 * parser, the auto-mounted route tree, GET /__routes, GET /health, JSON 404 and the one error
 * middleware. Services differ only in their routes directory and their context.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { TokenService } from '../auth/tokens';
import type { Federation } from '../federation';
import type { Stores } from '../db';
import type { EngineKind } from '../db/engine';
import { authenticate } from './authenticate';
import { routeTreeBodyParsers } from './body';
import { errorMiddleware, notFoundJson } from './errors-mw';
import { healthHandler, type Probe } from './health';
import { requestId } from './request-id';
import { canonicalPath } from './canonical-path';
import { buildRouteTree, listRoutes, type MountedRouter } from './route-tree';
import { httpMetrics, templateRouteOf } from '../metrics/http';
import { openApiHandler } from '../openapi/handler';

/** Routes every service app serves besides its route tree. */
const OWN_ROUTES = [
  { methods: ['GET'], path: '/health' },
  { methods: ['GET'], path: '/__routes' },
  { methods: ['GET'], path: '/__openapi' },
];

export interface ServiceAppOptions<C> {
  name: string;
  config: Config;
  logger: Logger;
  repos: Stores;
  tokens: TokenService;
  /** Verifies HTTP-signed requests from other servers (remote viewers). */
  federation?: Pick<Federation, 'verify'>;
  routesDir: string;
  ctx: C;
  /** `mongodb` (the database on either engine; critical: 503 when it fails), `bus`, and any the service adds. */
  probes: Record<string, Probe>;
  /** The database engine, shown by GET /health. */
  engine: EngineKind;
  /** Middleware run before the route tree (e.g. the SPA guard). */
  before?: RequestHandler[];
}

export function createServiceHttpApp<C>(opts: ServiceAppOptions<C>): {
  app: Express;
  routes: MountedRouter[];
} {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true); // only the gateway talks to services; it sets X-Forwarded-*
  app.set('query parser', 'extended');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  let routes: MountedRouter[] = [];
  app.use(
    httpMetrics(
      opts.name,
      templateRouteOf(() => [...listRoutes(routes), ...OWN_ROUTES]),
    ),
  );
  app.use(requestId);
  app.use(canonicalOnly);
  app.use(authenticate(opts.tokens, opts.repos, opts.federation));
  app.use(...routeTreeBodyParsers(opts.config.jsonLimitBytes));
  for (const mw of opts.before ?? []) app.use(mw);

  app.get('/health', healthHandler(opts.probes, { critical: ['mongodb'], info: { engine: opts.engine } }));
  routes = buildRouteTree(opts.routesDir, opts.ctx);
  app.get('/__routes', (_req, res) => {
    const list = listRoutes(routes);
    res.json({ total: list.length, routes: list });
  });
  app.get('/__openapi', openApiHandler(opts.name, routes));
  for (const { path, router } of routes) app.use(path, router);
  app.use(notFoundJson);
  app.use(errorMiddleware(opts.logger));
  return { app, routes };
}

/**
 * The gateway rewrites every request to its canonical path; any other spelling reaching a
 * service came around the edge rules, so it is answered like a route that does not exist.
 */
const canonicalOnly: RequestHandler = (req, res, next) => {
  if (canonicalPath(req.path) === req.path) return next();
  notFoundJson(req, res, next);
};

export { express };
