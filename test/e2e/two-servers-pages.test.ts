/**
 * Remote pages (spec 4.3 `GET /pages/:id?domain=`; issue 23, item 3; docs/federation.md, "Remote
 * pages") between two real servers, both ways: each fetches the other's public page by slug and by
 * id (signed, through the safe client), gets 404 for a page shown only to the other's own users
 * and for none at all, 403 while the other is blocked. A fake server that says it is Mastodon is
 * refused with 400; a fake Agora server's page is sanitised again, and an answer that is not the
 * page asked for is a 502. Nothing is stored.
 */
import { ADMIN, client, type TestServer } from '../harness/standalone';
import { bootPeerServer, freePort } from '../harness/two-servers';
import { registerActor, type Actor } from '../harness/actors';
import { json, serveNodeInfo, startPeer, type FakePeer } from '../harness/fake-peer';

const A = 'pages-a.test';
const B = 'pages-b.test';
const MASTODON = 'pages-mastodon.test';
const SHADY = 'pages-shady.test';
let a: TestServer;
let b: TestServer;
let mastodon: FakePeer;
let shady: FakePeer;
let bob: Actor;
const admins: Record<string, string> = {};
const pages: Record<string, { id: string; slug: string; hidden: string }> = {};

async function makePages(s: TestServer, domain: string) {
  const api = client(s.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admins[domain] = login.body.token;
  const create = async (body: Record<string, unknown>) => {
    const res = await api.post<{ page: { id: string; slug: string } }>('/admin/pages', body, {
      token: admins[domain],
    });
    if (res.status !== 201) throw new Error(`page on ${domain}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.page;
  };
  const open = await create({ title: `About ${domain}`, source: '# Hello **there**' });
  const hidden = await create({ title: 'Staff only', source: 'secret', to: `@${domain}` });
  pages[domain] = { id: open.id, slug: open.slug, hidden: hidden.id };
}

beforeAll(async () => {
  mastodon = await startPeer((req, res) =>
    serveNodeInfo(MASTODON, req, res, 'mastodon') ? undefined : json(res, 404, { error: 'Not found' }),
  );
  shady = await startPeer((req, res) => {
    if (serveNodeInfo(SHADY, req, res)) return;
    const wanted = decodeURIComponent(req.url.replace('/pages/', ''));
    const item =
      wanted === 'liar'
        ? { id: `page:000000000000000000000001@${SHADY}`, slug: 'someone-else' }
        : {
            id: `page:000000000000000000000002@${SHADY}`,
            slug: wanted,
            title: 'Shady',
            body: '<p>hi<script>alert(1)</script><img src="x" onerror="alert(2)"></p>',
            url: 'javascript:alert(3)',
          };
    json(res, 200, { item }, 'application/json');
  });
  const others = { [MASTODON]: mastodon.address, [SHADY]: shady.address };
  const [portA, portB] = [await freePort(), await freePort()];
  // Deliveries at their normal pace: nothing here waits on a retry.
  const normal = { FEDERATION_DELIVERY_DELAY_SCALE: '1' };
  [a, b] = await Promise.all([
    bootPeerServer(A, portA, { [B]: portB, ...others }, normal),
    bootPeerServer(B, portB, { [A]: portA, ...others }, normal),
  ]);
  await Promise.all([makePages(a, A), makePages(b, B)]);
  bob = await registerActor(client(b.url), 'bob');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await mastodon?.close();
  await shady?.close();
});

const getPage = (s: TestServer, idOrSlug: string, domain: string, token?: string) =>
  client(s.url).get<{ item: Record<string, unknown>; error?: string }>(
    `/pages/${encodeURIComponent(idOrSlug)}?domain=${domain}`,
    token ? { token } : {},
  );

test.each([
  ['B reads A', () => b, A],
  ['A reads B', () => a, B],
])(
  '%s: a public page by slug and by id; a staff page and a missing one are 404',
  async (_n, reader, origin) => {
    const s = reader();
    const want = pages[origin]!;
    for (const key of [want.slug, want.id]) {
      const res = await getPage(s, key, origin);
      expect(res.status).toBe(200);
      expect(res.body.item).toMatchObject({ id: want.id, slug: want.slug, originDomain: origin });
      expect(String(res.body.item.body)).toContain('<strong>there</strong>');
    }
    expect((await getPage(s, want.hidden, origin)).status).toBe(404);
    expect((await getPage(s, 'no-such-page', origin)).status).toBe(404);
    // Fetched, never stored: the reader's own database has no copy.
    expect(await s.services[0]!.runtime!.repos.pages.byId(want.id)).toBeNull();
  },
);

test('only compatible servers are asked; the answer is checked and sanitised', async () => {
  const refused = await getPage(b, 'about', MASTODON);
  expect(refused.status).toBe(400);
  expect(refused.body.error).toBe(`domain: ${MASTODON} is not a compatible server`);
  expect(mastodon.received.some((r) => r.url.startsWith('/pages'))).toBe(false);

  const shadyPage = await getPage(b, 'welcome', SHADY);
  expect(shadyPage.status).toBe(200);
  expect(String(shadyPage.body.item.body)).not.toMatch(/script|onerror/);
  expect(shadyPage.body.item).not.toHaveProperty('url');
  expect((await getPage(b, 'liar', SHADY)).status).toBe(502);
  // A page id of another domain than the one named, and a domain that is no domain: 400.
  expect((await getPage(b, pages[A]!.id, SHADY)).status).toBe(400);
  expect((await getPage(b, 'about', 'not a domain')).status).toBe(400);
});

test("a blocked domain's pages are refused until it is unblocked", async () => {
  const api = client(b.url);
  const block = (blocked: boolean) =>
    api.call('PATCH', `/admin/servers/${A}`, { token: admins[B], body: { blocked } });
  expect((await block(true)).status).toBe(200);
  try {
    expect((await getPage(b, pages[A]!.slug, A, bob.token)).status).toBe(403);
  } finally {
    expect((await block(false)).status).toBe(200);
  }
  expect((await getPage(b, pages[A]!.slug, A, bob.token)).status).toBe(200);
});
