/**
 * `GET /metrics` in the Prometheus text format on a port of its own (METRICS_PORT; 0 = off), so
 * scrapes never queue behind API traffic, never pass the gateway's edge rules, and the port can
 * stay inside the cluster network while the API port is public.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from './registry';

export interface MetricsServer {
  url: string;
  /** Lets the process exit with the server still open, and scrapers' kept-alive connections. */
  unref(): void;
  close(): Promise<void>;
}

export async function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) =>
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: err.message })),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown}:${actual}/metrics`,
    unref: () => {
      server.unref();
      server.on('connection', (socket) => socket.unref());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
