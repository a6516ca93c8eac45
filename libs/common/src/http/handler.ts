/**
 * Handler conventions of spec 1.4: a handler gets `req, query, params, body, user, set,
 * setStatus`; the body is built with `set`, `set('error', falsy)` does nothing, the status is
 * 200 unless set, and any throw becomes `{ error }` through the one error middleware.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Unauthorized } from '../errors';
import type { AuthUser } from './context';

export interface HandlerArgs {
  req: Request;
  res: Response;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: Record<string, unknown>;
  user: AuthUser | undefined;
  set: (key: string, value: unknown) => void;
  setStatus: (code: number) => void;
}

export interface HandlerOptions {
  /** Let non-GET requests through without a user (spec 5.3.2). */
  allowUnauth?: boolean;
  /** Require a user even for GET/HEAD/OPTIONS. */
  requireAuth?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function needsAuth(method: string, opts: HandlerOptions): boolean {
  if (opts.requireAuth) return true;
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  return !opts.allowUnauth;
}

export function handler(
  fn: (args: HandlerArgs) => Promise<void> | void,
  opts: HandlerOptions = {},
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const user = req.auth?.user;
    if (!user && needsAuth(req.method, opts)) {
      next(new Unauthorized());
      return;
    }
    const out: Record<string, unknown> = {};
    let status = 200;
    const args: HandlerArgs = {
      req,
      res,
      query: req.query ?? {},
      params: (req.params ?? {}) as Record<string, string>,
      body: isPlainObject(req.body) ? req.body : {},
      user,
      set: (key, value) => {
        if (key === 'error' && !value) return;
        out[key] = value;
      },
      setStatus: (code) => {
        status = code;
      },
    };
    Promise.resolve()
      .then(() => fn(args))
      .then(() => {
        if (res.headersSent) return;
        res.status(status).json(out);
      })
      .catch(next);
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
