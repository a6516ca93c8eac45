/**
 * The admin story of issue 14: a member reports a post; the admin signs in, sees the overview,
 * resolves the flag with a note, closes open registration in the settings (secrets stay
 * read-only), creates an invite, and a newcomer joins with its link; the log tail filters by
 * level. (Discover curation, content and backups have their own stories in this folder.)
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let carol: Actor, dave: Actor;
let admin: Person, daveView: Person, newcomer: Person;
let postId: string;
let inviteLink: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  [carol, dave] = [await registerActor(api, 'carol'), await registerActor(api, 'dave')];
  const post = await outbox(api, carol, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', content: 'Buy cheap watches at example.com' },
  });
  if (post.status !== 201) throw new Error(`seed post: ${post.status}`);
  postId = post.body.createdId!;
  admin = await personFor(browser, server.url);
  daveView = await personFor(browser, server.url, { token: dave.token });
  newcomer = await personFor(browser, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => {
  for (const p of [admin, daveView, newcomer]) expect(p?.problems ?? []).toEqual([]);
});

test('a member reports a post', async () => {
  const { page } = daveView;
  await page.goto(`/posts/${encodeURIComponent(postId)}`);
  await page.getByText('Report this post').click();
  await page.getByLabel('Reason').selectOption('spam');
  await page.getByLabel('Details (optional)').fill('Advertising');
  await page.getByRole('button', { name: 'Send report' }).click();
  expect(await mainShows(page, 'the moderators will look at it')).toContain('Thanks');
});

test('the admin signs in and sees the overview', async () => {
  const { page } = admin;
  await page.goto('/admin');
  // Signed out, the dashboard asks for a login and comes back after it.
  await page.getByRole('link', { name: 'Log in' }).first().click();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  const stats = await page.getByTestId('stats').textContent();
  expect(stats).toMatch(/users\s*3/);
  expect(stats).toMatch(/open flags\s*1/);
  await expectAccessible(page, 'admin overview');
});

test('the admin resolves the flag with a note', async () => {
  const { page } = admin;
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Flags' }).click();
  const flag = page.getByTestId('flag').filter({ hasText: 'Spam' });
  await flag.waitFor();
  // The reported post in words: its excerpt and author, not its id.
  expect(await flag.getByTestId('flag-excerpt').textContent()).toContain('Buy cheap watches');
  expect(await flag.textContent()).not.toContain(postId);
  await expectAccessible(page, 'flag queue');
  await flag.getByLabel('Notes').fill('Spam link removed by the author');
  await flag.getByRole('button', { name: 'Resolve' }).click();
  await mainShows(page, 'The queue is empty.');
  await page.getByLabel('Show').selectOption('resolved');
  const closed = page.getByTestId('flag').filter({ hasText: 'Spam' });
  await closed.waitFor();
  expect(await closed.textContent()).toContain('Notes: Spam link removed by the author');
  expect(await closed.textContent()).toContain('resolved');
});

test('the admin closes open registration; secrets stay read-only', async () => {
  const { page } = admin;
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Server settings' }).waitFor();
  expect(await page.locator('li').filter({ hasText: 'privateKey' }).textContent()).toMatch(
    /\[redacted\].*read-only/,
  );
  await expectAccessible(page, 'settings');
  await page.getByLabel('Anyone may register').setChecked(false);
  await page.getByRole('button', { name: 'Save registrationIsOpen' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await page.reload();
  await page.getByLabel('Anyone may register').waitFor();
  expect(await page.getByLabel('Anyone may register').isChecked()).toBe(false);
});

test('the admin creates an invite', async () => {
  const { page } = admin;
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Invites' }).click();
  await page.getByLabel('Note').fill('For the book club');
  await page.getByRole('button', { name: 'Create invite' }).click();
  const created = page.getByTestId('invite-created');
  await created.waitFor();
  inviteLink = (await created.locator('code').textContent())!;
  expect(inviteLink).toMatch(/\/signup\?invite=[\w-]{16}$/);
  expect(await page.getByTestId('invite').first().textContent()).toContain('For the book club');
  await expectAccessible(page, 'invites');
  await screenshot(page, 'admin-invites');
});

test('a newcomer cannot join without the invite, and joins with its link', async () => {
  const { page } = newcomer;
  // The closed registration reaches the social service's /config.json at once (the settings
  // stamp, docs/admin.md): no reload needed.
  await page.goto('/signup');
  await mainShows(page, 'takes new members by invitation');
  await page.goto(new URL(inviteLink).pathname + new URL(inviteLink).search);
  await page.getByLabel('Username').fill('erin');
  await page.getByLabel('Password').fill('password123');
  expect(await page.getByLabel('Invite code').inputValue()).toBe(
    new URL(inviteLink).searchParams.get('invite'),
  );
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Home' }).waitFor();
});

test('the log tail filters by level', async () => {
  const { page } = admin;
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Logs' }).click();
  await page.getByRole('heading', { name: 'Logs' }).waitFor();
  await page.getByLabel('Level').selectOption('error');
  await page.locator('main [data-testid="log-lines"], main .state.empty').first().waitFor();
  expect(await page.getByLabel('Level').inputValue()).toBe('error');
  await expectAccessible(page, 'logs');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Overview' }).click();
  const stats = await mainShows(page, 'active invites');
  expect(stats).toMatch(/users\s*4/);
  await screenshot(page, 'admin-overview');
});
