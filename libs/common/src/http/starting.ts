/**
 * What a service's port answers while the process starts (docs/operations.md, Upgrade): it
 * listens as soon as its runtime is made, so a start probe sees a live process however long the
 * start takes (a database migration run or waited for, ADR 0032), while readiness stays off:
 * `GET /health` answers 503 `{ status: 'error', message: 'Starting' }` and every other request
 * 503 `{ error }` with `Retry-After`, until the service's own app takes over.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const health = req.method === 'GET' && (req.url === '/health' || !!req.url?.startsWith('/health?'));
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(health ? { 'access-control-allow-origin': '*' } : { 'retry-after': '5' }),
  });
  res.end(
    JSON.stringify(
      health
        ? { status: 'error', timestamp: new Date().toISOString(), message: 'Starting' }
        : { error: 'The service is starting; retry shortly' },
    ),
  );
}
