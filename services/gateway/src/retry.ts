/**
 * Which failed proxied requests the gateway may send again to another replica. Only a failure
 * of the connection itself qualifies (refused, reset or broken before any answer came back; a
 * timeout does not: the replica may still be working on it), and only for a request the gateway
 * can send again whole and whose repetition is harmless:
 * - any request whose connection was refused (the replica never saw it);
 * - GET, HEAD and OPTIONS (safe methods, RFC 9110 §9.2.1);
 * - any request carrying an `Idempotency-Key` (the services replay or refuse a repeated key:
 *   docs/messaging.md "Idempotency-Key").
 * A body is replayable when there is none or when the edge buffered it (`rawBody`: JSON,
 * URL-encoded and POST /outbox bodies, body-limit.ts); a streamed upload is never retried.
 */
import type { IncomingMessage } from 'node:http';

const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ECONNABORTED']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The connection to the replica failed (as opposed to the replica answering slowly or badly). */
export function connectionFailed(err: Error): boolean {
  return CONNECTION_FAILURES.has((err as NodeJS.ErrnoException).code ?? '');
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Sending `req` again after `err` is harmless and possible. */
export function retryable(req: IncomingMessage, err: Error): boolean {
  if (hasBody(req) && !Buffer.isBuffer((req as { rawBody?: unknown }).rawBody)) return false;
  if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
  const method = (req.method ?? 'GET').toUpperCase();
  return SAFE_METHODS.has(method) || req.headers['idempotency-key'] !== undefined;
}
