/**
 * Issue 26, comfort: the dark theme follows the system and a switch in the app (kept across a
 * reload), and the main screens pass axe in both themes.
 */
import type { Browser } from 'playwright-core';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import {
  expectAccessible,
  launchBrowser,
  mainShows,
  personFor,
  screenshot,
  themeOf,
  themeShown,
  type Person,
} from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor, bob: Actor;
let aliceView: Person, bobView: Person;
let api: ReturnType<typeof client>;
let postId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  api = client(server.url);
  [alice, bob] = [await registerActor(api, 'alice'), await registerActor(api, 'bob')];
  await outbox(api, bob, { type: 'Follow', object: alice.id });
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Runner beans are climbing the canes' },
  });
  postId = post.body.createdId!;
  aliceView = await personFor(browser, server.url, { token: alice.token });
  bobView = await personFor(browser, server.url, { token: bob.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => {
  for (const p of [aliceView, bobView]) expect(p?.problems ?? []).toEqual([]);
});

const background = (p: Person) =>
  p.page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');

test('the theme follows the system until the switch chooses one, and the choice survives a reload', async () => {
  const { page } = bobView;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await mainShows(page, 'Runner beans');
  expect(await themeOf(page)).toBe('dark');
  const darkBg = await background(bobView);
  const theme = page.getByRole('combobox', { name: 'Theme' });
  expect(await theme.inputValue()).toBe('system');

  await page.emulateMedia({ colorScheme: 'light' });
  await themeShown(page, 'light');
  expect(await background(bobView)).not.toBe(darkBg);

  await theme.selectOption('dark');
  expect(await themeOf(page)).toBe('dark');
  expect(await background(bobView)).toBe(darkBg);
  await page.reload();
  await mainShows(page, 'Runner beans');
  expect(await themeOf(page)).toBe('dark');
  expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('dark');
  await screenshot(page, 'home-dark');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
  expect(await themeOf(page)).toBe('light');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
  expect(await themeOf(page)).toBe('dark');
  expect(await page.evaluate("localStorage.getItem('agora.theme')")).toBeNull();
  await page.emulateMedia({ colorScheme: 'light' });
  await themeShown(page, 'light');
});

test.each([
  ['home', '/', 'Runner beans'],
  ['post', '/posts/:post', 'Runner beans'],
  ['circles', '/circles', 'New circle'],
  ['notifications', '/notifications', 'Mark all read'],
  ['settings', '/settings', 'Change password'],
  ['groups', '/groups', 'New group'],
  ['discover', '/discover', 'Nothing is featured yet.'],
])('the %s screen passes axe in the light and the dark theme', async (name, path, expected) => {
  const { page } = bobView;
  await page.goto(path.replace(':post', encodeURIComponent(postId)));
  await mainShows(page, expected);
  await expectAccessible(page, name);
});
