/**
 * Reading (issue 26, item 5): what people found missing, one story each. A new account lands on
 * Discover's suggestions, not on an empty list; a signed-in person reads the server's and the
 * public timelines; the signed-out home and profiles go on past 20 posts; a public group's posts
 * show to people who have not joined; `#garden` finds the post whose body says it, with author,
 * date and excerpt; the admin features a post by searching its title. No screen shows a raw id.
 */
import type { Browser, Page } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

const DOMAIN = '@social.test';
const MANY = 25;
let server: TestServer;
let browser: Browser;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;
let adminToken: string;
let groupId: string, groupPostId: string;

/** Object ids as the server mints them: never shown on a screen. */
const RAW_ID = /\b(post|reply|group|circle|page|bookmark|section|recommendation):[0-9a-f]{24}/;

async function expectNoRawIds(page: Page) {
  const text = (await page.locator('body').textContent()) ?? '';
  expect(text).not.toMatch(RAW_ID);
}

async function created(actor: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(api, actor, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
}

const post = (actor: Actor, to: string, object: Record<string, unknown>) =>
  created(actor, { type: 'Create', objectType: 'Post', to, object: { type: 'Note', ...object } });

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  api = client(server.url);
  [alice, bob, carol, dave] = [
    await registerActor(api, 'alice'),
    await registerActor(api, 'bob'),
    await registerActor(api, 'carol'),
    await registerActor(api, 'dave'),
  ];
  adminToken = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  // The oldest first: "Morning note 1" is the last one a reader reaches.
  for (let i = 1; i <= MANY; i++) await post(alice, '@public', { content: `Morning note ${i}` });
  await post(bob, DOMAIN, { content: 'Bake sale on Saturday, for people here' });
  await post(alice, '@public', {
    title: 'Tomato day',
    content: 'Planted the tomatoes along the fence in the #garden, and basil between them.',
  });
  groupId = await created(bob, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: 'Allotment friends', rsvpPolicy: 'open' },
  });
  groupPostId = await post(bob, groupId, { content: 'Seed swap next week at the allotment gate' });
  // Discover has a shelf, curated by the admin through the API (the admin story below uses the screen).
  const section = await api.post<{ section: { id: string } }>(
    '/admin/sections',
    { name: 'Good first reads', order: 1, to: '@public', active: true },
    { token: adminToken },
  );
  expect(section.status).toBe(201);
  const welcome = await post(alice, '@public', { title: 'Say hello to the neighbours', content: 'Hi all.' });
  const rec = await api.post(
    '/admin/recommendations',
    { ref: welcome, section: section.body.section.id, note: 'Start here' },
    { token: adminToken },
  );
  expect(rec.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('a new account lands on suggestions from Discover, with the way to the other timelines', async () => {
  const dv: Person = await personFor(browser, server.url, { token: dave.token });
  const { page } = dv;
  await page.goto('/');
  const suggestions = page.getByTestId('home-suggestions');
  await suggestions.getByText('Say hello to the neighbours').waitFor();
  expect(await suggestions.textContent()).toContain('Good first reads');
  expect(await suggestions.textContent()).toContain('Start here');
  expect(await page.locator('main').textContent()).not.toContain('No posts here yet.');
  await expectAccessible(page, 'empty home with suggestions');
  await expectNoRawIds(page);
  await screenshot(page, 'home-suggestions');

  // The server's timeline: the locals-only post is there; the public one has the public posts only.
  await suggestions.getByRole('link', { name: 'posts on this server' }).click();
  await page.waitForURL(/\?feed=server$/);
  expect(await mainShows(page, 'Bake sale on Saturday')).not.toContain('Morning note');
  expect(await page.getByRole('link', { name: 'This server' }).getAttribute('aria-current')).toBe('page');
  await expectAccessible(page, 'server timeline');
  await expectNoRawIds(page);
  await page.getByRole('navigation', { name: 'Timelines' }).getByRole('link', { name: 'Public' }).click();
  await page.waitForURL(/\?feed=public$/);
  expect(await mainShows(page, `Morning note ${MANY}`)).not.toContain('Bake sale');
  await expectAccessible(page, 'public timeline');
  await screenshot(page, 'home-public');
  expect(dv.problems).toEqual([]);
});

test('signed out, the home page and a profile go on past the first 20 posts', async () => {
  const visitor = await personFor(browser, server.url);
  const { page } = visitor;
  await page.goto('/');
  await mainShows(page, 'Tomato day');
  await mainShows(page, 'Morning note 8');
  expect(
    await page
      .locator('main')
      .getByText(/^Morning note 7$/)
      .count(),
  ).toBe(0);
  // Scrolling to the end of the list loads the next page (the button is there for keyboards).
  await page.getByRole('button', { name: 'Load more posts' }).scrollIntoViewIfNeeded();
  await mainShows(page, /^Morning note 1$/);
  await page.getByText("That's all.").waitFor();
  await expectAccessible(page, 'signed-out home, second page');
  await expectNoRawIds(page);

  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  await mainShows(page, `Morning note ${MANY}`);
  // From the keyboard: the button, pressed with Enter.
  await page.getByRole('button', { name: 'Load more posts' }).focus();
  await page.keyboard.press('Enter');
  await mainShows(page, /^Morning note 1$/);
  await expectAccessible(page, 'profile, second page');
  await expectNoRawIds(page);
  await screenshot(page, 'profile-paged');
  expect(visitor.problems).toEqual([]);
});

test("a public group's posts show to a visitor and to a person who has not joined", async () => {
  const visitor = await personFor(browser, server.url);
  await visitor.page.goto(`/groups/${encodeURIComponent(groupId)}`);
  await mainShows(visitor.page, 'Seed swap next week');
  await expectAccessible(visitor.page, 'public group, signed out');
  await expectNoRawIds(visitor.page);

  const cv = await personFor(browser, server.url, { token: carol.token });
  await cv.page.goto(`/groups/${encodeURIComponent(groupId)}`);
  const text = await mainShows(cv.page, 'Seed swap next week');
  expect(text).toContain('Join the group to post in it.');
  await cv.page.getByRole('button', { name: 'Join group' }).waitFor();
  // The post opens too (GET /posts/:id reads it with the group's audience).
  await cv.page.goto(`/posts/${encodeURIComponent(groupPostId)}`);
  await mainShows(cv.page, 'Seed swap next week');
  await expectAccessible(cv.page, 'public group, not a member');
  await screenshot(cv.page, 'group-non-member');
  expect([...visitor.problems, ...cv.problems]).toEqual([]);
});

test('#garden finds the post whose body says it, with its author, date and excerpt', async () => {
  const cv = await personFor(browser, server.url, { token: carol.token });
  const { page } = cv;
  // From the hashtag link in the post itself.
  await page.goto('/?feed=public');
  await page.getByRole('link', { name: '#garden' }).first().click();
  await page.waitForURL(/\/search\?q=%23garden/);
  const result = page.getByTestId('search-results').locator('li').filter({ hasText: 'Tomato day' });
  await result.waitFor();
  const text = (await result.textContent()) ?? '';
  expect(text).toContain('by alice');
  expect(text).toContain('Planted the tomatoes along the fence');
  expect(await result.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(await result.getByRole('link', { name: 'Tomato day' }).getAttribute('href')).toMatch(/^\/posts\//);
  await expectAccessible(page, 'hashtag search');
  await expectNoRawIds(page);
  await screenshot(page, 'search-hashtag');
  expect(cv.problems).toEqual([]);
});

test('the admin features a post by searching its title; a private one is refused with the reason', async () => {
  const me = await api.get<{ user: { id: string; following: string } }>('/auth/me', { token: adminToken });
  const admin: Actor = { id: me.body.user.id, username: ADMIN.username, token: adminToken };
  await post(admin, me.body.user.following, { title: 'Private tomato diary', content: 'Only for friends.' });
  const adminPerson = await personFor(browser, server.url, { token: adminToken });
  const { page } = adminPerson;
  await page.goto('/admin/discover');
  const section = page.getByTestId('section').filter({ hasText: 'Good first reads' });
  await section.waitFor();
  await section.getByLabel('Find a post, page, group or bookmark').fill('tomato');
  await section.getByRole('button', { name: 'Find' }).click();
  await section.getByLabel('Note').fill('Spring reading');
  await section.getByRole('button', { name: 'Feature “Tomato day”' }).click();
  await section.getByText('Spring reading').waitFor();
  // The featured post is listed by its title and author, never as a bare ref.
  const featured = section.locator('li').filter({ hasText: 'Spring reading' });
  expect(await featured.textContent()).toMatch(/Tomato day\s*by alice/);
  // The admin's own private post is found (they may read it) but cannot be featured: the reason shows.
  await section.getByRole('button', { name: 'Feature “Private tomato diary”' }).click();
  expect(await section.getByRole('alert').textContent()).toMatch(/private/i);
  await expectAccessible(page, 'discover curation by search');
  await expectNoRawIds(page);
  await screenshot(page, 'admin-discover-search');

  await page.goto('/discover');
  const shelf = await mainShows(page, 'Tomato day');
  expect(shelf).toContain('Spring reading');
  expect(shelf).not.toContain('Private tomato diary');
  await expectNoRawIds(page);
  expect(adminPerson.problems).toEqual([]);
});
