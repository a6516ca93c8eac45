/**
 * The application-level body layer of spec 1.2 at the edge: `application/json` and URL-encoded
 * bodies over 1 MB are refused with 413 before anything is proxied. POST /outbox bodies of any
 * JSON type are read up to JSON_LIMIT (de-duplication needs them). Everything else streams
 * through untouched (multipart uploads are never buffered here); services apply JSON_LIMIT.
 */
import express, { type RequestHandler } from 'express';
import type { Config } from '@agora/common/config';
import { isJsonType } from '@agora/common/http';

export const APP_LEVEL_LIMIT = 1024 * 1024;

function mediaType(raw: string | undefined): string {
  return (raw ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isOutboxPost(method: string, path: string): boolean {
  return method === 'POST' && path === '/outbox'; // the path is canonical (canonical.ts)
}

export function bodyLimits(config: Config): RequestHandler {
  const appLevel = express.raw({ type: () => true, limit: APP_LEVEL_LIMIT });
  const outbox = express.raw({ type: () => true, limit: config.jsonLimitBytes });
  return (req, res, next) => {
    const type = mediaType(req.headers['content-type']);
    const appParsed = type === 'application/json' || type === 'application/x-www-form-urlencoded';
    const keep: express.NextFunction = (err?: unknown) => {
      if (err) return next(err);
      if (Buffer.isBuffer(req.body)) (req as { rawBody?: Buffer }).rawBody = req.body;
      next();
    };
    if (appParsed) return appLevel(req, res, keep);
    if (isOutboxPost(req.method, req.path) && isJsonType(req)) return outbox(req, res, keep);
    next();
  };
}

/** The parsed JSON of a buffered body, or undefined. */
export function jsonOf(req: express.Request): unknown {
  const raw = (req as { rawBody?: Buffer }).rawBody;
  if (!raw?.length) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
