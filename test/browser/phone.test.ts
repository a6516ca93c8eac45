/**
 * The main screens at a 375 px wide phone: nothing scrolls sideways, the menu opens from its
 * button, and each screen passes the axe-core checks.
 */
import type { Browser } from 'playwright-core';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import {
  PHONE,
  expectAccessible,
  launchBrowser,
  mainShows,
  overflowsX,
  personFor,
  screenshot,
  type Person,
} from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor, bob: Actor;
let phone: Person;
let postId: string;
let circleId: string;
let bookmarkId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  [alice, bob] = [await registerActor(api, 'alice'), await registerActor(api, 'bob')];
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  await outbox(api, bob, { type: 'Add', target: me.body.user.following, object: alice.id });
  const circle = await outbox(api, bob, {
    type: 'Create',
    objectType: 'Circle',
    to: bob.id,
    object: { name: 'Neighbours' },
  });
  circleId = circle.body.createdId!;
  await outbox(api, bob, { type: 'Add', target: circleId, object: alice.id });
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: {
      type: 'Note',
      title: 'A fairly long title that has to wrap on a narrow phone screen',
      content: 'Some text with a https://example.com/a/very/long/link/that/should/wrap/rather/than/overflow',
    },
  });
  postId = post.body.createdId!;
  await outbox(api, bob, { type: 'Reply', to: postId, object: { content: 'Lovely!' } });
  const bookmark = await outbox(api, bob, {
    type: 'Create',
    objectType: 'Bookmark',
    to: bob.id,
    object: {
      type: 'Bookmark',
      title: 'Allotment waiting list',
      href: 'https://example.com/a/very/long/link/to/the/allotment/waiting/list/that/must/wrap',
    },
  });
  bookmarkId = bookmark.body.createdId!;
  phone = await personFor(browser, server.url, { token: bob.token, viewport: PHONE });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => expect(phone?.problems ?? []).toEqual([]));

test.each([
  ['home', '/', 'A fairly long title'],
  ['circle', '/circles/:circle', 'Neighbours'],
  ['post', '/posts/:post', 'Lovely!'],
  ['profile', '/users/@alice@social.test', 'A fairly long title'],
  ['groups', '/groups', 'New group'],
  ['notifications', '/notifications', 'Mark all read'],
  ['settings', '/settings', 'Change password'],
  ['bookmark', '/bookmarks/:bookmark', 'Allotment waiting list'],
  ['discover', '/discover', 'Nothing is featured yet.'],
])('the %s screen fits a phone', async (name, template, expected) => {
  const { page } = phone;
  await page.goto(
    template
      .replace(':circle', encodeURIComponent(circleId))
      .replace(':post', encodeURIComponent(postId))
      .replace(':bookmark', encodeURIComponent(bookmarkId)),
  );
  await mainShows(page, expected);
  expect(await overflowsX(page)).toBe(false);
  await expectAccessible(page, `${name} at 375 px`);
  if (name === 'home' || name === 'post') await screenshot(page, `phone-${name}`);
});

test('the menu opens from its button and navigates', async () => {
  const { page } = phone;
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  expect(await nav.isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Menu' }).click();
  expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
  await nav.getByRole('link', { name: 'Circles' }).click();
  await page.getByRole('heading', { name: 'Circles', exact: true }).waitFor();
  expect(await nav.isVisible()).toBe(false);
  expect(await overflowsX(page)).toBe(false);
  await page.getByRole('button', { name: 'Menu' }).click();
  await screenshot(page, 'phone-menu');
  expect(await nav.textContent()).toContain('Log out');
});
