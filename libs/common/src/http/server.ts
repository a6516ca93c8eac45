/** An HTTP server that drains in-flight requests on close. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: Express, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000; // above common load-balancer idle timeouts
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
