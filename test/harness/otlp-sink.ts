/**
 * A stand-in OpenTelemetry collector: accepts OTLP/HTTP exports on a loopback port and counts
 * them, so processes run with tracing on (as docker-compose runs them) without a collector.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Export requests received, by path (`/v1/traces`, ...). */
  received: Map<string, number>;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const received = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      received.set(path, (received.get(path) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
