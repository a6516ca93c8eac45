/**
 * An HTTP server that drains on close (graceful shutdown, docs/operations.md "Stopping a
 * process"). `close(graceMs)`:
 * 1. readiness turns 503 at once: `GET /health` answers `{ status: 'error', message: 'Shutting
 *    down' }` (a balancer or Kubernetes stops sending new requests);
 * 2. the listening socket closes (new connections are refused: a balancer tries another replica);
 * 3. kept-alive connections close: idle ones at once, busy ones after their in-flight request
 *    (its response carries `Connection: close`);
 * 4. event streams (`text/event-stream`, the live updates of ADR 0020) end at once: they never
 *    finish by themselves, so waiting for them would hold every rollout for the whole grace; their
 *    clients reconnect to another replica;
 * 5. requests still running after `graceMs` are cut.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** `close()` has begun: readiness answers 503 and connections are closing. */
  readonly draining: boolean;
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_DRAIN_MS = 10_000;

function isEventStream(res: ServerResponse): boolean {
  return res.headersSent && String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

/** Ends a stream; a proxy may still pipe a chunk into it, which must not become an uncaught error. */
function endStream(res: ServerResponse): void {
  res.on('error', () => undefined);
  res.end();
}

function answerDraining(res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify({ status: 'error', timestamp: new Date().toISOString(), message: 'Shutting down' }));
}

export async function listen(app: Express, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.setHeader('connection', 'close');
      if (req.method === 'GET' && (req.url === '/health' || req.url?.startsWith('/health?')))
        return answerDraining(res);
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // Once answered, a connection of a draining server is idle: close it.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    app(req, res);
  });
  server.keepAliveTimeout = 65_000; // above common load-balancer idle timeouts
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    get draining() {
      return draining;
    },
    close: (graceMs = DEFAULT_DRAIN_MS) =>
      (closing ??= new Promise<void>((resolve) => {
        draining = true;
        for (const res of inFlight)
          if (!res.headersSent) res.setHeader('connection', 'close');
          else if (isEventStream(res)) endStream(res);
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      })),
  };
}
