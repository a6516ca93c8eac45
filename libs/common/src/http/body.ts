/**
 * Body parsing layers of spec 1.2, and the refusal of NUL characters anywhere in a request:
 * PostgreSQL (under FerretDB) cannot store or compare `\u0000` in text, so a NUL that reached a
 * query would fail it with a 500 instead of a 400.
 */
import express, { type RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { BadRequest } from '../errors';

/** The route-tree matcher: JSON, ActivityStreams and any `+json` type. */
export function isJsonType(req: IncomingMessage): boolean {
  const raw = req.headers['content-type'];
  if (!raw) return false;
  const type = raw.split(';')[0]!.trim().toLowerCase();
  if (!type) return false;
  return (
    type === 'application/json' ||
    type === 'application/activity+json' ||
    type === 'application/ld+json' ||
    type === 'text/json' ||
    type === 'text/activity+json' ||
    type.endsWith('+json')
  );
}

const NUL_IN_URL = /%00/i;
/** `\u0000` in JSON text, unless its backslash is itself escaped (`\\u0000` is six characters). */
const NUL_IN_JSON = /(^|[^\\])(\\\\)*\\u0000/i;
const NUL_IN_FORM = /%00|\0/;

/** The bytes a JSON body arrived as: a signed request's digest covers them, not a re-serialisation. */
export function rawBodyOf(req: IncomingMessage): Buffer | undefined {
  return (req as IncomingMessage & { rawBody?: Buffer }).rawBody;
}

const refuse = (pattern: RegExp) => (req: IncomingMessage, _res: unknown, buf: Buffer) => {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buf;
  if (pattern.test(buf.toString('utf8'))) throw new BadRequest('NUL characters are not allowed');
};

/** 400 for a NUL character in the path or query string. */
export const refuseNulUrl: RequestHandler = (req, _res, next) => {
  next(NUL_IN_URL.test(req.originalUrl) ? new BadRequest('NUL characters are not allowed') : undefined);
};

/** The route-tree layer: `JSON_LIMIT` for every JSON-ish type, plus URL-encoded forms. */
export function routeTreeBodyParsers(limitBytes: number) {
  return [
    refuseNulUrl,
    express.json({ limit: limitBytes, type: isJsonType, strict: false, verify: refuse(NUL_IN_JSON) }),
    express.urlencoded({ extended: false, limit: limitBytes, verify: refuse(NUL_IN_FORM) }),
  ];
}
