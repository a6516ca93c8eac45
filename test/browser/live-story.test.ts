/**
 * Live updates in two browsers (issue 26, ADR 0020): bob, who follows alice, keeps his home
 * timeline open; alice posts from hers, and bob's screen offers "Show 1 new post" without a
 * reload; he opens the post, alice replies there mentioning him, and bob's open thread shows the
 * reply while his badge and tab title count the mention (after the new-posts digest). Neither page is reloaded: a marker set
 * in bob's page at the start is still there at the end.
 */
import type { Page } from 'playwright-core';
import { outbox, type Actor } from '../harness/actors';
import { badgeShows, expectAccessible, mainShows, screenshot, twoPeople, type Person } from './harness';

const people = twoPeople();
let alice: Actor, bob: Actor;
let aliceView: Person, bobView: Person;

/** Resolves once `page` holds an open live stream (its `ready` came back as a 200). */
function streamOpened(page: Page) {
  return page.waitForResponse((r) => r.url().endsWith('/notifications/stream') && r.status() === 200);
}

beforeAll(async () => {
  ({ alice, bob, aliceView, bobView } = people);
  const { api } = people;
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  const follow = await outbox(api, bob, { type: 'Add', target: me.body.user.following, object: alice.id });
  expect(follow.status).toBe(201);
});

test("bob's open timeline offers alice's new post, and shows it when asked", async () => {
  const bobPage = bobView.page;
  const opened = streamOpened(bobPage);
  await bobPage.goto('/');
  // bob's Following timeline is empty yet: the home offers suggestions (reading-story).
  await bobPage.getByRole('heading', { name: 'Nothing from people you follow yet' }).waitFor();
  await opened;
  await bobPage.evaluate('window.__notReloaded = true');

  const { page } = aliceView;
  await page.goto('/');
  await page.getByLabel('Post text (markdown)').fill('Fresh bread at the market today');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await page.getByRole('main').getByText('Fresh bread at the market today').waitFor();

  const banner = bobPage.getByTestId('new-posts');
  await banner.filter({ hasText: 'Show 1 new post' }).waitFor();
  // Offered, not pushed into the list under the reader's eyes.
  expect(await bobPage.getByRole('main').textContent()).not.toContain('Fresh bread');
  await expectAccessible(bobPage, 'timeline with the new-posts banner');
  await banner.click();
  await mainShows(bobPage, 'Fresh bread at the market today');
  await banner.waitFor({ state: 'detached' });
  // The new-posts digest notification counts on the badge as soon as it is written.
  await badgeShows(bobPage, 1);
});

test('bob reads the thread; alice replies mentioning him: the reply, the badge and the title update live', async () => {
  const bobPage = bobView.page;
  await bobPage.getByRole('main').getByRole('link', { name: '0 replies' }).click();
  await bobPage.getByRole('heading', { name: 'Replies' }).waitFor();
  await bobPage.getByText('No replies yet.').waitFor();
  expect(await bobPage.title()).toBe('(1) Agora');

  const { page } = aliceView;
  await page.getByRole('main').getByRole('link', { name: '0 replies' }).click();
  await page.getByLabel('Your reply').fill('Save a loaf for @bob@social.test');
  await page.getByRole('button', { name: 'Reply', exact: true }).first().click();
  await page.getByRole('main').getByText('Save a loaf for').waitFor();

  await mainShows(bobPage, 'Save a loaf for');
  await badgeShows(bobPage, 2);
  expect(await bobPage.title()).toBe('(2) Agora');
  expect(await bobPage.evaluate('window.__notReloaded === true')).toBe(true);
  await expectAccessible(bobPage, 'thread with a live reply');
  await screenshot(bobPage, 'live-reply');
});
