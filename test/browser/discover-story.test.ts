/**
 * Discover (issue 11's /admin/sections, /admin/recommendations and GET /recommendations): the
 * admin curates a shelf by searching a title, and a signed-out visitor sees the shelf with the
 * featured post and the curator's note.
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor;
let admin: Person, visitor: Person;
let postId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  alice = await registerActor(api, 'alice');
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', title: 'How we built the community garden', content: 'A story in pictures.' },
  });
  postId = post.body.createdId!;
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admin = await personFor(browser, server.url, { token: login.body.token });
  visitor = await personFor(browser, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('the admin adds a section and features a post in it', async () => {
  const { page } = admin;
  await page.goto('/admin/discover');
  await page.getByLabel('Name').fill('Staff picks');
  await page.getByLabel('Summary').fill('What we enjoyed this week');
  await page.getByRole('button', { name: 'Add section' }).click();
  const section = page.getByTestId('section').filter({ hasText: 'Staff picks' });
  await section.waitFor();
  // The admin finds the post by its title (reading-story.test.ts: a refused pick says why).
  await section.getByLabel('Find a post, page, group or bookmark').fill('community garden');
  await section.getByRole('button', { name: 'Find' }).click();
  await section.getByLabel('Note').fill('Lovely photos');
  await section.getByRole('button', { name: 'Feature “How we built the community garden”' }).click();
  await section.getByText('Lovely photos').waitFor();
  await expectAccessible(page, 'discover curation');
  await screenshot(page, 'admin-discover');
});

test('a visitor sees the shelf on Discover', async () => {
  const { page } = visitor;
  await page.goto('/discover');
  const text = await mainShows(page, 'Staff picks');
  expect(text).toContain('How we built the community garden');
  expect(text).toContain('Lovely photos');
  expect(text).toContain('A story in pictures.');
  expect(text).toContain('by alice');
  const link = page.getByRole('link', { name: 'How we built the community garden' });
  expect(await link.getAttribute('href')).toBe(`/posts/${encodeURIComponent(postId)}`);
  await expectAccessible(page, 'discover');
  await screenshot(page, 'discover');
  expect(visitor.problems).toEqual([]);
});
