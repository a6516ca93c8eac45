/** The one error middleware: any error → `{ error }`; 500s carry a request id, never a stack. */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { toHttpError } from '../errors';
import type { Logger } from '../logger';

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
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
