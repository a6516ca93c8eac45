/**
 * Every deep link opens the right screen on reload (a real navigation the gateway answers with
 * the app under its Content-Security-Policy); the hashed assets are cached for good; and every
 * route the app's API client calls exists in the server's /__routes.
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { CONTENT_ROUTES, PENDING_ROUTES, ROUTES, type RouteName } from '../../web/src/api/routes';
import { launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor;
let adminToken: string;
let viewer: Person;
const ids: Record<string, string> = {};

async function created(actor: { token: string }, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(client(server.url), actor as Actor, activity);
  if (res.status !== 201)
    throw new Error(`${JSON.stringify(activity)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  alice = await registerActor(api, 'alice');
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  adminToken = login.body.token;
  ids.post = await created(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', title: 'Hello world', content: 'First *post*' },
  });
  ids.circle = await created(alice, {
    type: 'Create',
    objectType: 'Circle',
    to: '@public',
    object: { name: 'Gardeners' },
  });
  ids.group = await created(alice, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: 'Book club' },
  });
  ids.bookmark = await created(alice, {
    type: 'Create',
    objectType: 'Bookmark',
    to: '@public',
    object: { type: 'Bookmark', title: 'Seed catalogue', href: 'https://example.org/seeds' },
  });
  await created(
    { token: adminToken },
    {
      type: 'Create',
      objectType: 'Page',
      to: '@public',
      object: { title: 'About this server', slug: 'about', content: 'We are **friendly**.' },
    },
  );
  viewer = await personFor(browser, server.url, { token: adminToken });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => expect(viewer?.problems ?? []).toEqual([]));

test.each([
  ['/posts/:post', 'Hello world'],
  ['/users/@alice@social.test', 'alice'],
  ['/circles/:circle', 'Gardeners'],
  ['/groups/:group', 'Book club'],
  ['/pages/about', 'We are friendly.'],
  ['/admin/flags', 'The queue is empty.'],
  ['/admin/users', 'alice'],
  ['/discover', 'Discover'],
  ['/search?q=hello', 'Search'],
  ['/settings', 'Change password'],
  ['/bookmarks', 'Nothing saved here yet.'],
  ['/bookmarks/:bookmark', 'Seed catalogue'],
  ['/notifications', 'No notifications.'],
  ['/profile', 'About Agora'],
])('a reload of %s opens its screen', async (template, expected) => {
  const path = template.replace(/:(\w+)/, (_m, k: string) => encodeURIComponent(ids[k]!));
  const { page } = viewer;
  const res = await page.goto(path);
  expect(res!.status()).toBe(200);
  expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(res!.headers()['content-type']).toMatch(/text\/html/);
  expect(await mainShows(page, expected)).toContain(expected);
  if (template === '/pages/about') await screenshot(page, 'page');
});

test('an unknown screen says so, and a missing post shows the server refusal', async () => {
  const { page } = viewer;
  await page.goto('/posts/post:000000000000000000000000@social.test');
  expect(await page.getByRole('alert').textContent()).toMatch(/not found/i);
  await page.goto('/circles/nope/deeper/still');
  expect(await mainShows(page, 'Nothing lives at this address.')).toContain('Not found');
});

test('build assets are cached immutably; the page itself is revalidated', async () => {
  const home = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
  expect(home.headers.get('cache-control')).toBe('no-cache');
  const html = await home.text();
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  expect(script).toMatch(/^\/assets\/.+\.js$/);
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script under the CSP
  const asset = await fetch(`${server.url}${script!}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
  expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
});

test("every route the app's client calls is served (or is knowingly pending)", async () => {
  const res = await client(server.url).get<{ routes: Array<{ path: string }> }>('/__routes');
  const served = new Set(res.body.routes.map((r) => r.path.replace(/(.)\/$/, '$1')));
  const pending = new Set<RouteName>(PENDING_ROUTES);
  const names = Object.keys(ROUTES) as RouteName[];
  const missing = [
    ...names.filter((n) => !pending.has(n) && !served.has(ROUTES[n])).map((n) => ROUTES[n]),
    ...CONTENT_ROUTES.filter((p) => !served.has(p)),
  ];
  expect(missing).toEqual([]);
  // A pending route that has landed must move out of PENDING_ROUTES (and its stories in).
  const landed = PENDING_ROUTES.map((n) => ROUTES[n]).filter((p) => served.has(p));
  expect(landed).toEqual([]);
});
