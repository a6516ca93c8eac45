/**
 * The balancer in front of the gateways of `npm run cluster` and the cluster tier (a stand-in
 * for the cloud load balancer or ingress of a real deployment; HAProxy or nginx would do the
 * same). Round-robin over the gateways with passive health, the rules of the gateway's own
 * proxy (services/gateway/src/balance.ts and retry.ts):
 * - a gateway that refused or dropped a connection is skipped for 5 s (unless all are);
 * - a request whose connection was refused goes to the next gateway (it was never seen);
 * - one whose connection broke before an answer goes to the next gateway only if it is GET, HEAD
 *   or OPTIONS or carries an `Idempotency-Key`; otherwise the client gets 502.
 * Request bodies are buffered (this balancer is for one machine, not for large uploads); every
 * request uses a new connection to its gateway, so a gateway that drains (graceful shutdown)
 * never has a kept-alive connection of ours to close under a request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { flow } from '@agora/common/streams';
import { replicaPool } from '../services/gateway/src/balance';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface Balancer {
  url: string;
  /** Requests answered 502 because no gateway could take them. */
  readonly failed: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection and are not passed on. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/**
 * A gateway's response headers without its connection's own: our connection to it is closed
 * after every request (`agent: false`), and its `Connection: close` must not close the client's
 * kept-alive connection to the balancer too.
 */
function endToEnd(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out = { ...headers };
  for (const h of [...HOP_BY_HOP, ...named]) delete out[h];
  return out;
}

function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
): Promise<'answered' | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const url = new URL(req.url ?? '/', target);
    const headers = { ...req.headers, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    delete headers.connection;
    const out = http.request(url, { method: req.method, headers, agent: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, endToEnd(up.headers));
      // Answered either way: a body cut midway is the client's broken response, not a retry.
      flow([up, res]).then(
        () => resolve('answered'),
        () => resolve('answered'),
      );
    });
    out.on('error', (err: NodeJS.ErrnoException) => (res.headersSent ? res.destroy() : resolve(err)));
    out.end(body);
  });
}

export async function startBalancer(
  gateways: readonly string[],
  opts: { port?: number; host?: string } = {},
): Promise<Balancer> {
  const pool = replicaPool(gateways);
  let failed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const tried = new Set<string>();
        const repeatable = SAFE.has(req.method ?? 'GET') || req.headers['idempotency-key'] !== undefined;
        for (let target = pool.pick(); target; target = pool.pick(tried)) {
          tried.add(target);
          const outcome = await forward(target, req, body, res);
          if (outcome === 'answered') return;
          pool.markDown(target);
          if (outcome.code !== 'ECONNREFUSED' && !repeatable) break;
        }
        failed++;
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'No gateway answered' }));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get failed() {
      return failed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
