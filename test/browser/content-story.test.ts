/**
 * Needs the shared CRUD shape under /admin/posts and friends: the admin writes an
 * announcement, edits it, deletes it and restores it.
 */
import { expectAccessible, mainShows, screenshot, theAdmin, type Person } from './harness';

const held = theAdmin();
let admin: Person;

beforeAll(() => {
  ({ admin } = held);
});

test('an announcement is created, edited, deleted and restored', async () => {
  const { page } = admin;
  await page.goto('/admin/content');
  await page.getByRole('button', { name: 'New post' }).click();
  await page.getByLabel('Title').fill('Maintenance on Sunday');
  await page.getByLabel('Text (markdown)').fill('The server will be down for **an hour**.');
  await page.getByRole('button', { name: 'Create' }).click();
  const item = page.getByTestId('content-item').filter({ hasText: 'Maintenance on Sunday' });
  await item.waitFor();
  await item.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Title').fill('Maintenance on Monday');
  await page.getByRole('button', { name: 'Save' }).click();
  const edited = page.getByTestId('content-item').filter({ hasText: 'Maintenance on Monday' });
  await edited.waitFor();
  await edited.getByRole('button', { name: 'Delete', exact: true }).click();
  await edited.waitFor({ state: 'detached' });
  await page.getByLabel('Show').selectOption('true');
  const deleted = page.getByTestId('content-item').filter({ hasText: 'Maintenance on Monday' });
  await deleted.getByRole('button', { name: 'Restore' }).click();
  await page.getByLabel('Show').selectOption('false');
  expect(await mainShows(page, 'Maintenance on Monday')).not.toContain('deleted');
  await expectAccessible(page, 'content');
  await screenshot(page, 'admin-content');
  expect(admin.problems).toEqual([]);
});
