/**
 * Issue 26, comfort: the dark theme follows the system and a switch in the app (kept across a
 * reload), and the main screens pass axe in both themes.
 */
import type { Page } from 'playwright-core';
import type { client } from '../harness/standalone';
import { outbox, type Actor } from '../harness/actors';
import {
  expectAccessible,
  mainShows,
  screenshot,
  themeOf,
  themeShown,
  twoPeople,
  type Person,
} from './harness';

const people = twoPeople();
let alice: Actor, bob: Actor;
let aliceView: Person, bobView: Person;
let api: ReturnType<typeof client>;
let postId: string;

beforeAll(async () => {
  ({ api, alice, bob, aliceView, bobView } = people);
  await outbox(api, bob, { type: 'Follow', object: alice.id });
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Runner beans are climbing the canes' },
  });
  postId = post.body.createdId!;
});

/** Waits until the notifications consumer has written `n` unread notifications for `who`. */
async function unreadReaches(who: Actor, n: number): Promise<number> {
  for (;;) {
    const res = await api.get<{ count: number }>('/notifications/unread/count', { token: who.token });
    if (res.body.count >= n) return res.body.count;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits (up to 20 s: the badge polls every 5 s) until the tab's title is `title`. */
async function titleBecomes(page: Page, title: string): Promise<void> {
  let seen = '';
  for (let i = 0; i < 100; i++) {
    seen = await page.title();
    if (seen === title) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the tab title stayed "${seen}", not "${title}"`);
}

const backgroundOf = (page: Page, selector: string) =>
  page.evaluate<string>(
    `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`,
  );

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

test('notifications say who did what to which post, unread ones stand out, and the tab title counts them', async () => {
  await outbox(api, bob, { type: 'React', to: postId, object: { emoji: '👍' } });
  await outbox(api, bob, { type: 'Reply', to: postId, object: { content: 'Mine are too!' } });
  // The react, the reply and bob's follow.
  const unread = await unreadReaches(alice, 3);
  const { page } = aliceView;
  await page.goto('/notifications');
  const react = page.getByTestId('notification').filter({ hasText: 'reacted to your post' });
  const reply = page.getByTestId('notification').filter({ hasText: 'replied to your post' });
  for (const n of [react, reply]) {
    await n.getByText('Runner beans are climbing the canes').waitFor();
    expect(await n.getAttribute('class')).toContain('unread');
    expect(await n.getByRole('button', { name: /^Unread: / }).count()).toBe(1);
    expect(await n.locator('.avatar').textContent()).toBe('B');
    expect(await n.textContent()).toContain('bob');
  }
  await react.getByText('👍').waitFor();
  await titleBecomes(page, `(${unread}) Agora`);
  const unreadBg = await backgroundOf(page, '.notifications li.unread');
  await expectAccessible(page, 'notifications with unread ones');
  await screenshot(page, 'notifications');

  await reply.getByRole('button', { name: /replied to your post/ }).click();
  await mainShows(page, 'Mine are too!');
  await page.goto('/notifications');
  const readNow = page.getByTestId('notification').filter({ hasText: 'replied to your post' });
  await readNow.getByText('Runner beans').waitFor();
  expect(await readNow.getAttribute('class')).not.toContain('unread');
  expect(await readNow.getByRole('button', { name: /^Unread: / }).count()).toBe(0);
  expect(await backgroundOf(page, '.notifications li.read')).not.toBe(unreadBg);
  await titleBecomes(page, `(${unread - 1}) Agora`);

  // The new-posts digest says whose posts are new instead of "Your feeds have new posts".
  await unreadReaches(bob, 1);
  await bobView.page.goto('/notifications');
  const digest = bobView.page.getByTestId('notification').filter({ hasText: 'New posts' });
  await digest.waitFor();
  expect(await digest.textContent()).toContain('New posts from people you follow, starting with alice');
  expect(await bobView.page.locator('main').textContent()).not.toContain('Your feeds have new posts');
});

test('a circle says it shows its members’ posts, counts "1 member", and Following is no audience', async () => {
  const made = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Close friends' },
  });
  const circleId = made.body.createdId!;
  await outbox(api, alice, { type: 'Add', target: circleId, object: bob.id });
  await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: circleId,
    object: { type: 'Note', source: 'Only for close friends' },
  });
  const { page } = aliceView;
  await page.goto(`/circles/${encodeURIComponent(circleId)}`);
  const text = await mainShows(page, "A circle shows its members' posts, not yours");
  expect(text).toContain('1 member');
  expect(text).not.toContain('1 members');
  expect(text).not.toContain('No posts here yet.');
  await expectAccessible(page, 'an empty circle');

  await page.goto('/circles');
  const list = await mainShows(page, 'Close friends');
  expect(list).toMatch(/Close friends.*1 member(?!s)/s);

  await page.goto('/');
  const audience = page.getByRole('combobox', { name: 'Audience' });
  await audience.locator('option', { hasText: 'Close friends' }).waitFor({ state: 'attached' });
  const offered = await audience.locator('option').allTextContents();
  expect(offered).toContain('Close friends');
  expect(offered).not.toContain('Following');
  await screenshot(page, 'audience-picker');
});

test('keyboard shortcuts go places, ? shows their help, Escape closes it, and typing never fires them', async () => {
  const { page } = bobView;
  await page.goto('/');
  await mainShows(page, 'Runner beans');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await sheet.waitFor();
  expect(await sheet.textContent()).toContain('Go to notifications');
  await expectAccessible(page, 'the shortcuts sheet');
  await screenshot(page, 'shortcuts');
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });

  await page.keyboard.press('g');
  await page.keyboard.press('n');
  await page.waitForURL('**/notifications');
  await mainShows(page, 'Mark all read');
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await page.waitForURL((u) => u.pathname === '/');
  await mainShows(page, 'Runner beans');

  await page.keyboard.press('/');
  await page.waitForURL('**/search**');
  await page.locator('main input[type="search"]:focus').waitFor();
  await page.keyboard.type('beans');
  expect(await page.locator('main input[type="search"]').inputValue()).toBe('beans');

  await page.keyboard.press('n');
  expect(page.url()).toContain('/search');
  await page.locator('main input[type="search"]').blur();
  await page.keyboard.press('n');
  await page.waitForURL((u) => u.pathname === '/');
  const text = page.locator('form.compose textarea');
  await page.locator('form.compose textarea:focus').waitFor();
  // Typed into the post, not taken as shortcuts.
  await page.keyboard.type('g n ? / n');
  expect(await text.inputValue()).toBe('g n ? / n');
  expect(new URL(page.url()).pathname).toBe('/');
  expect(await sheet.isVisible()).toBe(false);
});
