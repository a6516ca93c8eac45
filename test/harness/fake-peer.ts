/**
 * A fake federation peer at the HTTP layer (as gotosocial's testrig): a real node:http server on a
 * loopback address that records every request and answers through a handler the test sets.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (req: Received, res: ServerResponse) => void;

export interface FakePeer {
  /** `host:port` to put in a hostMap. */
  address: string;
  port: number;
  received: Received[];
  handler: Handler;
  close(): Promise<void>;
}

export async function startPeer(handler: Handler, host = '127.0.0.1'): Promise<FakePeer> {
  const peer = { received: [] as Received[], handler };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      peer.received.push(received);
      peer.handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(peer, {
    address: `${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export function json(res: ServerResponse, status: number, doc: unknown, type = 'application/activity+json') {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(doc));
}
