/**
 * The edge's compression rules, through a real HTTP server and raw requests (no client that
 * decodes for us): brotli or gzip by Accept-Encoding, and never for ranges, event streams,
 * `no-transform` or media that is compressed already.
 */
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compress } from './compress';

const JSON_BODY = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ id: i, text: 'hello' })),
});
const BYTES = Buffer.alloc(4096, 7);

let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(compress());
  app.get('/json', (_req, res) => void res.type('application/json').send(JSON_BODY));
  app.get('/small', (_req, res) => void res.json({ ok: true }));
  app.get('/jpeg', (_req, res) => void res.type('image/jpeg').send(BYTES));
  app.get('/range', (_req, res) => {
    res.status(206).setHeader('Content-Range', `bytes 0-4095/8192`);
    res.type('text/plain').send(BYTES.toString('latin1'));
  });
  app.get('/events', (_req, res) => {
    res.setHeader('Content-Type', 'text/event-stream');
    res.write(`data: ${'x'.repeat(2000)}\n\n`);
    res.end();
  });
  app.get('/no-transform', (_req, res) => {
    res.setHeader('Cache-Control', 'no-transform');
    res.type('application/json').send(JSON_BODY);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((r) => server.close(r)));

function get(path: string, encoding?: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('JSON goes out as brotli when the client takes it, gzip otherwise, plain when asked for nothing', async () => {
  const br = await get('/json', 'gzip, deflate, br');
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toMatch(/accept-encoding/i);
  expect(brotliDecompressSync(br.body).toString()).toBe(JSON_BODY);
  expect(br.body.length).toBeLessThan(JSON_BODY.length / 4);

  const gz = await get('/json', 'gzip');
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gz.body).toString()).toBe(JSON_BODY);

  const plain = await get('/json');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(JSON_BODY);
});

test('small bodies, compressed media, ranges, event streams and no-transform are sent as they are', async () => {
  for (const path of ['/small', '/jpeg', '/range', '/events', '/no-transform']) {
    const res = await get(path, 'gzip, br');
    expect([path, res.headers['content-encoding']]).toEqual([path, undefined]);
  }
  expect((await get('/jpeg', 'br')).body.equals(BYTES)).toBe(true);
});
