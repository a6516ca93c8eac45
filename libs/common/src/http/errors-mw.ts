/** The one error middleware: any error → `{ error }`; 500s carry a request id, never a stack. */
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { toHttpError } from '../errors';
import type { Logger } from '../logger';
import { isClientGone } from '../streams';

/**
 * The client hung up before the answer (an upload abandoned midway, a download cut off): there is
 * nobody to answer and nothing went wrong on our side, so it is not logged as a failure.
 */
function clientWentAway(req: Request, err: unknown): boolean {
  if (!req.socket?.destroyed) return false;
  return isClientGone(err) || /^Request (aborted|closed)$/.test((err as Error | undefined)?.message ?? '');
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (clientWentAway(req, err)) {
      logger.info({ requestId: req.requestId, path: req.path }, 'client went away');
      res.destroy();
      return;
    }
    const { status, message, extra, internal } = toHttpError(err);
    if (internal) logger.error({ err, requestId: req.requestId, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body: Record<string, unknown> = { ...(extra ?? {}), error: message };
    if (status >= 500) body.requestId = req.requestId;
    res.status(status).json(body);
  };
}

export const notFoundJson: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'Not found' });
};
