/**
 * The balancer of `npm run cluster` (scripts/cluster-balancer.ts) is an HTTP proxy: it passes
 * end-to-end headers on and keeps hop-by-hop ones to each connection. Its connection to a gateway
 * is closed after every request, and that gateway's `Connection: close` must not close the
 * client's kept-alive connection to the balancer (every request would pay a new connection, and
 * load generators measure the reconnections).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBalancer, type Balancer } from '../../../scripts/cluster-balancer';

let gateway: http.Server;
let balancer: Balancer;

beforeAll(async () => {
  gateway = http.createServer((_req, res) => {
    res.setHeader('connection', 'close, x-hop');
    res.setHeader('x-hop', 'this connection only');
    res.setHeader('x-kept', 'end to end');
    res.end('ok');
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  balancer = await startBalancer([`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`]);
});
afterAll(async () => {
  await balancer?.close();
  await new Promise((r) => gateway?.close(r));
});

function get(agent: http.Agent): Promise<{ headers: http.IncomingHttpHeaders; port: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${balancer.url}/x`, { agent }, (res) => {
      const port = req.socket?.localPort ?? -1;
      res.resume();
      res.on('end', () => resolve({ headers: res.headers, port }));
    });
    req.on('error', reject);
  });
}

test("a gateway's Connection header and the headers it names stay on its connection", async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(agent);
    expect(first.headers.connection).toBe('keep-alive');
    expect(first.headers['x-hop']).toBeUndefined();
    expect(first.headers['x-kept']).toBe('end to end');
    // The same client connection serves the next request.
    const second = await get(agent);
    expect(second.port).toBe(first.port);
  } finally {
    agent.destroy();
  }
});
