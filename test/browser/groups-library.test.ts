/**
 * The other screens in use: a group with approval (create, request, approve, group post), a
 * bookmark inside a folder, and a profile change in the settings.
 */
import type { Actor } from '../harness/actors';
import { expectAccessible, mainShows, screenshot, twoPeople, type Person } from './harness';

const people = twoPeople();
let alice: Actor;
let aliceView: Person, bobView: Person;
let groupPath: string;
let bookmarkPath: string;

beforeAll(() => {
  ({ alice, aliceView, bobView } = people);
});

test('alice creates a group that needs approval; bob asks; alice approves; bob posts in it', async () => {
  const a = aliceView.page;
  await a.goto('/groups');
  await a.getByText('New group').click();
  await a.getByLabel('Name').fill('Allotment society');
  await a.getByLabel('Who may join').selectOption('approvalOnly');
  await a.getByRole('button', { name: 'Create group' }).click();
  await a.getByRole('heading', { name: 'Allotment society' }).waitFor();
  groupPath = new URL(a.url()).pathname;

  const b = bobView.page;
  await b.goto(groupPath);
  await b.getByRole('button', { name: 'Join group' }).click();
  await mainShows(b, 'waiting for approval');

  await a.reload();
  await a.getByRole('button', { name: 'Approve bob' }).click();
  await mainShows(a, 'No pending requests.');

  await b.reload();
  await b.getByRole('button', { name: 'Leave group' }).waitFor();
  await b.getByLabel('Post text (markdown)').fill('Who has spare seedlings?');
  await b.getByRole('button', { name: 'Post', exact: true }).click();
  const post = b.getByTestId('post').filter({ hasText: 'Who has spare seedlings?' });
  await post.waitFor();
  expect(await post.textContent()).toContain('Group');
  await expectAccessible(b, 'group');
  await screenshot(b, 'group');
});

test('bob saves a bookmark in a folder', async () => {
  const { page } = bobView;
  await page.goto('/bookmarks');
  await page.getByLabel('Folder name').fill('Gardening');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByRole('button', { name: '📁 Gardening' }).click();
  await page.getByLabel('Link').fill('https://example.com/compost');
  await page.getByLabel('Title').fill('Compost guide');
  await page.getByRole('button', { name: 'Save bookmark' }).click();
  await page.getByRole('link', { name: 'Compost guide' }).waitFor();
  await page.getByRole('button', { name: 'All bookmarks' }).click();
  const root = await mainShows(page, 'Gardening');
  expect(root).not.toContain('Compost guide');
  await expectAccessible(page, 'bookmarks');
});

test('a bookmark and its folder open on their own screens, also on reload', async () => {
  const { page } = bobView;
  await page.goto('/bookmarks');
  await page.getByRole('button', { name: '📁 Gardening' }).click();
  await page.getByRole('link', { name: 'Compost guide' }).click();
  await page.getByRole('heading', { name: 'Compost guide' }).waitFor();
  bookmarkPath = new URL(page.url()).pathname;
  expect(bookmarkPath).toMatch(/^\/bookmarks\/bookmark%3A/);
  await page.reload();
  const text = await mainShows(page, 'In the folder Gardening');
  expect(text).toContain('https://example.com/compost');
  expect(text).toContain('Only me');
  await page.getByRole('link', { name: 'Gardening' }).click();
  await page.getByRole('heading', { name: '📁 Gardening' }).waitFor();
  const folder = page.getByTestId('folder-items');
  await folder.getByRole('link', { name: 'Compost guide' }).waitFor();
  expect(await folder.textContent()).toBe('Compost guide');
  await expectAccessible(page, 'bookmark folder');
  await screenshot(page, 'bookmark-folder');
});

test("someone else's private bookmark is refused like a missing one", async () => {
  const { page } = aliceView;
  await page.goto(bookmarkPath);
  expect(await page.getByRole('alert').textContent()).toMatch(/not found/i);
  expect(await page.locator('main').textContent()).not.toContain('Compost guide');
});

test('alice changes her display name; a wrong current password is refused with the reason', async () => {
  const { page } = aliceView;
  await page.goto('/settings');
  await page.getByLabel('Display name').fill('Alice Gardener');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Profile saved.').waitFor();
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('another-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  expect(await page.getByRole('alert').textContent()).toMatch(
    /Not changed: Current password: does not match the current password\./,
  );
  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  await page.getByRole('heading', { name: 'Alice Gardener' }).waitFor();
  await expectAccessible(page, 'settings and profile');
});
