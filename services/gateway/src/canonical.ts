/**
 * First thing the edge does: rewrite the request to its canonical path (libs/common
 * canonicalPath), so rate limits, guards, de-duplication, the proxy and the services all see the
 * same spelling. A path that cannot be canonicalised (a malformed percent-escape) is a 400.
 */
import type { RequestHandler } from 'express';
import { canonicalPath, splitUrl } from '@agora/common/http';

export const canonicalUrl: RequestHandler = (req, res, next) => {
  const { path, query } = splitUrl(req.url);
  const canonical = canonicalPath(path);
  if (canonical === null) return void res.status(400).json({ error: 'path: malformed percent-encoding' });
  if (canonical !== path) req.url = canonical + query;
  next();
};

/** Headers every response carries, whichever service (or the edge itself) answers. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};
