import http from 'node:http';
import express from 'express';
import { listen } from './server';

/** One request over `agent`; resolves with the status, the Connection header and the body. */
function request(
  url: string,
  agent: http.Agent,
): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

describe('listen().close(): graceful drain', () => {
  it('lets the in-flight request finish with Connection: close, refuses new connections, then resolves', async () => {
    let release!: () => void;
    let began!: () => void;
    const started = new Promise<void>((r) => (began = r));
    const app = express();
    app.get('/slow', (_req, res) => {
      release = () => res.json({ done: true });
      began();
    });
    app.get('/health', (_req, res) => res.json({ status: 'ok' }));
    const server = await listen(app, 0);
    const agent = new http.Agent({ keepAlive: true });
    expect((await request(`${server.url}/health`, agent)).status).toBe(200);
    const slow = request(`${server.url}/slow`, agent);
    await started;
    let closed = false;
    const closing = server.close(5_000).then(() => (closed = true));
    expect(server.draining).toBe(true);
    await expect(request(`${server.url}/health`, new http.Agent())).rejects.toThrow(/ECONNREFUSED/);
    expect(closed).toBe(false);
    release();
    const answer = await slow;
    expect(answer).toEqual({ status: 200, connection: 'close', body: '{"done":true}' });
    await closing;
    expect(closed).toBe(true);
    agent.destroy();
  });

  it('cuts requests still running after the grace period', async () => {
    const app = express();
    app.get('/never', () => undefined);
    const server = await listen(app, 0);
    const hanging = request(`${server.url}/never`, new http.Agent());
    hanging.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    await server.close(100);
    await expect(hanging).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('ends event streams at once instead of waiting out the grace period', async () => {
    const app = express();
    app.get('/stream', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ready\ndata: {}\n\n');
    });
    const server = await listen(app, 0);
    const got = request(`${server.url}/stream`, new http.Agent());
    await new Promise((r) => setTimeout(r, 50));
    const began = Date.now();
    await server.close(60_000);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(await got).toMatchObject({ status: 200, body: 'event: ready\ndata: {}\n\n' });
  });
});
