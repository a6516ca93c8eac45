import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { withLogContext } from '../logger';

const SAFE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Keeps a sane incoming X-Request-Id (the gateway's) or makes one; returns it on the response. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE.test(incoming) ? incoming : randomUUID();
  req.requestId = id;
  res.setHeader('X-Request-Id', id);
  withLogContext({ requestId: id }, next);
};
