/**
 * Compression at the gateway, through the whole standalone server: a page of posts (JSON through
 * the proxy) and the web app's hashed JavaScript come out brotli-encoded and decode to what a
 * client that asks for no encoding gets; the hashed assets are cacheable for good.
 */
import http from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor } from '../harness/actors';

let server: TestServer;
let aliceId = '';

beforeAll(async () => {
  server = await bootServer();
  const api = client(server.url);
  const alice = await registerActor(api, 'alice');
  aliceId = alice.id;
  for (let i = 0; i < 12; i++) {
    const res = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: `post number ${i}` },
    });
    expect(res.status).toBe(201);
  }
});

afterAll(() => server?.close());

function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(`${server.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    },
  );
}

test('a page of posts through the proxy is brotli-encoded and decodes to the plain answer', async () => {
  const plain = await get(`/users/${encodeURIComponent(aliceId)}/posts?page=1`, {
    accept: 'application/json',
  });
  const br = await get(`/users/${encodeURIComponent(aliceId)}/posts?page=1`, {
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
  });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(br.headers['content-encoding']).toBe('br');
  const decoded = JSON.parse(brotliDecompressSync(br.body).toString()) as { orderedItems: unknown[] };
  expect(decoded.orderedItems).toHaveLength(12);
  expect(br.body.length).toBeLessThan(plain.body.length / 2);
});

test("the web app's hashed JavaScript is compressed and immutable", async () => {
  const js = readdirSync(join(__dirname, '..', '..', 'web', 'dist', 'assets')).find((f) => f.endsWith('.js'));
  expect(js).toBeDefined();
  const res = await get(`/assets/${js}`, { 'accept-encoding': 'br' });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(res.headers['cache-control']).toMatch(/immutable/);
  expect(brotliDecompressSync(res.body).length).toBeGreaterThan(res.body.length);
});
