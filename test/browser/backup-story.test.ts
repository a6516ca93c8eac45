/**
 * Needs /admin/backup and the backup worker: the admin runs a backup, watches it
 * reach done, and downloads the archive.
 */
import { expectAccessible, screenshot, theAdmin, type Person } from './harness';

const held = theAdmin();
let admin: Person;

beforeAll(() => {
  ({ admin } = held);
});

test('a backup runs to done with live progress and downloads', async () => {
  const { page } = admin;
  await page.goto('/admin/backups');
  await page.getByText('No backups yet.').waitFor();
  await page.getByRole('button', { name: 'Back up now' }).click();
  const job = page.getByTestId('backup-job').first();
  await job.waitFor();
  await job.getByTestId('backup-status').filter({ hasText: 'done' }).waitFor({ timeout: 120_000 });
  await expectAccessible(page, 'backups');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    job.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^backup-.+\.tar\.gz$/);
  await screenshot(page, 'admin-backups');
  expect(admin.problems).toEqual([]);
});
