/** Body parsing layers of spec 1.2. */
import express from 'express';
import type { IncomingMessage } from 'node:http';

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

/** The route-tree layer: `JSON_LIMIT` for every JSON-ish type, plus URL-encoded forms. */
export function routeTreeBodyParsers(limitBytes: number) {
  return [
    express.json({ limit: limitBytes, type: isJsonType, strict: false }),
    express.urlencoded({ extended: false, limit: limitBytes }),
  ];
}
