/**
 * Issue 26, never a dead end, and the comforts: the network cut by the test (an error with Retry,
 * the offline banner, the post kept and sent on retry), a draft per audience that survives a
 * reload, Ctrl+Enter, a 429 that says when to try again, unknown paths answered with the app's
 * Not found screen, Escape closing the phone menu, and bookmark folders in the address.
 */
import type { Browser } from 'playwright-core';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import {
  expectAccessible,
  launchBrowser,
  mainShows,
  personFor,
  PHONE,
  screenshot,
  type Person,
} from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor;
let view: Person;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  alice = await registerActor(client(server.url), 'alice');
  view = await personFor(browser, server.url, { token: alice.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => expect(view?.problems ?? []).toEqual([]));

const postText = () => view.page.getByLabel('Post text (markdown)');

test('offline: the screen says so, keeps the post, and retries it when the network is back', async () => {
  const { page, context } = view;
  await page.goto('/');
  await postText().fill('Written on the train');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Not posted' });
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/could not be reached/);
  await page.getByTestId('offline-banner').waitFor();
  expect(await postText().inputValue()).toBe('Written on the train');
  await expectAccessible(page, 'offline home');

  // Another screen while offline: an error with Retry, not "Loading…" for ever.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
  const groupsError = page.locator('main').getByRole('alert');
  await groupsError.waitFor();
  await groupsError.getByRole('button', { name: 'Retry' }).waitFor();

  await context.setOffline(false);
  await groupsError.getByRole('button', { name: 'Retry' }).click();
  await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  // The draft came back with the home screen; the retry sends it.
  expect(await postText().inputValue()).toBe('Written on the train');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await page.getByTestId('posted').waitFor();
  expect(await postText().inputValue()).toBe('');
  await page.getByTestId('post').filter({ hasText: 'Written on the train' }).waitFor();
});

test('a draft is kept per audience across a reload, and Ctrl+Enter posts it', async () => {
  const { page } = view;
  await page.goto('/');
  await postText().fill('Public thoughts');
  await page.getByLabel('Audience').selectOption({ label: 'This server' });
  // The text moves with the audience; the public draft is now empty.
  await postText().fill('For this server only');
  await page.reload();
  await page.getByLabel('Audience').waitFor();
  expect(await postText().inputValue()).toBe('');
  await page.getByLabel('Audience').selectOption({ label: 'This server' });
  expect(await postText().inputValue()).toBe('For this server only');
  await postText().press('Control+Enter');
  await page.getByTestId('posted').waitFor();
  await page.reload();
  await page.getByLabel('Audience').selectOption({ label: 'This server' });
  expect(await postText().inputValue()).toBe('');
});

test('a rate-limited post says when to try again', async () => {
  const { page } = view;
  await page.goto('/');
  await page.route('**/outbox', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '42', 'content-type': 'application/json' },
      body: JSON.stringify({ error: 'Too many requests' }),
    }),
  );
  await postText().fill('Too fast');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Not posted' });
  await alert.waitFor();
  expect(await alert.textContent()).toContain('try again in 42 seconds');
  await page.unroute('**/outbox');
  expect(await postText().inputValue()).toBe('Too fast');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await page.getByTestId('posted').waitFor();
});

test('an unknown path shows the app’s Not found screen; API clients still get JSON', async () => {
  const { page } = view;
  const res = await page.goto('/no/such/place');
  expect(res?.status()).toBe(404);
  expect(res?.headers()['content-type']).toMatch(/text\/html/);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await expectAccessible(page, 'not found');
  const api = await client(server.url).get('/no/such/place');
  expect(api.status).toBe(404);
  expect(api.headers.get('content-type')).toMatch(/application\/json/);
  expect(typeof api.body.error).toBe('string');
});

test('Escape closes the phone menu and gives focus back to its button', async () => {
  const phone = await personFor(browser, server.url, { token: alice.token, viewport: PHONE });
  const { page } = phone;
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  expect(await menu.getAttribute('aria-expanded')).toBe('true');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).focus();
  await page.keyboard.press('Escape');
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
  expect(await page.evaluate<string | null>("document.activeElement.getAttribute('aria-controls')")).toBe(
    'main-nav',
  );
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});

test('the open bookmark folder is in the address: reload and Back keep it', async () => {
  const { page } = view;
  await page.goto('/bookmarks');
  await page.getByLabel('Folder name').fill('Seeds');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByRole('button', { name: '📁 Seeds' }).click();
  await page.waitForURL(/\/bookmarks\?folder=/);
  await page.getByLabel('Link').fill('https://example.com/seeds');
  await page.getByLabel('Title').fill('Seed catalogue');
  await page.getByRole('button', { name: 'Save bookmark' }).click();
  await mainShows(page, 'Seed catalogue');
  await page.reload();
  await page.getByRole('navigation', { name: 'Folders' }).getByText('Seeds').waitFor();
  await mainShows(page, 'Seed catalogue');
  await page.goBack();
  await page.waitForURL(/\/bookmarks$/);
  await page.getByRole('button', { name: '📁 Seeds' }).waitFor();
  expect(await page.locator('main').textContent()).not.toContain('Seed catalogue');
  await expectAccessible(page, 'bookmark folder');
  await screenshot(page, 'everyday');
});
