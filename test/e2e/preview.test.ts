/**
 * GET /preview end to end (issue 12). A fake site on 127.0.0.2, allowed explicitly through
 * LINK_PREVIEW_ALLOW_IPS and reached by a mapped name, stands in for a public web server; the
 * SSRF table of quality-bars.md is refused before any connection (a loopback listener that would
 * answer records nothing), redirects into private space included, and each refusal answers the
 * empty card of a link that does not resolve (docs/security.md: no resolver oracle).
 */
import type { ServerResponse } from 'node:http';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { startPeer, type FakePeer } from '../harness/fake-peer';

let site: FakePeer;
let loopback: FakePeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;

const ARTICLE = `<!doctype html><html><head>
<title>Fallback</title>
<meta property="og:title" content="Boats &amp; Harbours">
<meta property="og:description" content="A long read about boats.">
<meta property="og:image" content="/static/card.jpg">
<meta property="og:site_name" content="The Harbour Times">
</head><body>…</body></html>`;

function html(res: ServerResponse, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}

beforeAll(async () => {
  loopback = await startPeer((_req, res) => html(res, '<title>internal admin</title>'));
  site = await startPeer((req, res) => {
    if (req.url === '/article') return html(res, ARTICLE);
    if (req.url === '/twitter')
      return html(
        res,
        '<head><meta name="twitter:title" content="Card title"><meta name="twitter:image" content="https://cdn.example/x.png"></head>',
      );
    if (req.url === '/image')
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10));
    if (req.url === '/into-loopback')
      return void res.writeHead(302, { location: `http://127.0.0.1:${loopback.port}/admin` }).end();
    if (req.url === '/into-metadata')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    html(res, 'gone', 404);
  }, '127.0.0.2');
  server = await bootServer({
    // Alice asks for more previews here than the per-user edge limit allows (test/security/preview.test.ts).
    RATE_LIMITING_ENABLED: 'false',
    LINK_PREVIEW_ALLOW_IPS: '127.0.0.2',
    FEDERATION_HOST_MAP: `news.test=${site.address},sneaky.test=${loopback.address}`,
  });
  api = client(server.url);
  alice = await registerActor(api, 'alice');
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await loopback?.close();
});

const preview = (url: string, who: Actor | null = alice) =>
  api.get(`/preview?url=${encodeURIComponent(url)}`, who ? { token: who.token } : {});

test('OpenGraph fields of a page, the image made absolute; the second ask is answered from the cache', async () => {
  const res = await preview('http://news.test/article#comments');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    url: 'http://news.test/article',
    title: 'Boats & Harbours',
    summary: 'A long read about boats.',
    image: 'http://news.test/static/card.jpg',
    siteName: 'The Harbour Times',
    contentType: 'text/html',
  });
  const asked = site.received.length;
  expect((await preview('http://news.test/article')).body).toEqual(res.body);
  expect(site.received.length).toBe(asked);
  expect(site.received.at(-1)!.headers.authorization).toBeUndefined();
});

test('Twitter cards fill in; a non-HTML link and a dead page give empty fields', async () => {
  expect((await preview('http://news.test/twitter')).body).toMatchObject({
    title: 'Card title',
    image: 'https://cdn.example/x.png',
    siteName: 'news.test',
  });
  expect((await preview('http://news.test/image')).body).toMatchObject({
    title: null,
    contentType: 'image/png',
  });
  expect((await preview('http://news.test/missing')).body).toMatchObject({
    title: null,
    summary: null,
    image: null,
  });
});

test('the SSRF table gets the empty card of an unreachable link and nothing reaches a private listener', async () => {
  const port = loopback.port;
  const table = [
    `http://127.0.0.1:${port}/`,
    `http://localhost:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://2130706433:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://sneaky.test/`,
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://news.test/into-loopback',
    'http://news.test/into-metadata',
  ];
  for (const url of [...table, 'http://no-such-host.invalid/']) {
    const res = await preview(url);
    const { href, hostname } = new URL(url);
    expect({ url, status: res.status, body: res.body }).toEqual({
      url,
      status: 200,
      body: { url: href, title: null, summary: null, image: null, siteName: hostname, contentType: null },
    });
  }
  expect(loopback.received).toHaveLength(0);
});

test('bad input: 400 naming url; anonymous callers 401', async () => {
  for (const url of [
    '',
    'not a url',
    'file:///etc/passwd',
    'ftp://news.test/x',
    'gopher://news.test/',
    'http://user:pw@news.test/',
  ]) {
    const res = await preview(url);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^url:/);
  }
  expect((await api.get('/preview?url[$ne]=1', { token: alice.token })).status).toBe(400);
  expect((await preview('http://news.test/article', null)).status).toBe(401);
});
