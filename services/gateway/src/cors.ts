/**
 * Cross-origin rules of spec 1.3: the configured domain (https and http), CORS_ORIGIN entries,
 * and localhost:5173 / localhost:3000 outside production. No Origin → allowed (native clients,
 * federation). A disallowed origin gets no CORS headers. Preflights are answered here.
 */
import type { RequestHandler } from 'express';
import type { Config } from '@agora/common/config';

export function allowedOrigins(config: Config): Set<string> {
  const set = new Set<string>([
    `https://${config.DOMAIN}`,
    `http://${config.DOMAIN}`,
    ...config.corsOrigins.map((o) => o.replace(/\/+$/, '')),
  ]);
  if (config.NODE_ENV !== 'production')
    for (const o of ['http://localhost:5173', 'http://localhost:3000']) set.add(o);
  return set;
}

const EXPOSED = [
  'X-Request-Id',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].join(', ');

export function cors(config: Config): RequestHandler {
  const allowed = allowedOrigins(config);
  return (req, res, next) => {
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!origin) return next();
    res.vary('Origin');
    if (!allowed.has(origin)) {
      if (preflight) return void res.status(204).end();
      return next();
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    if (!preflight) return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    const reqHeaders = req.headers['access-control-request-headers'];
    if (reqHeaders) {
      res.setHeader('Access-Control-Allow-Headers', reqHeaders);
      res.vary('Access-Control-Request-Headers');
    }
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
