/**
 * Admin settings as forms generated from the settings schema (issue 26, item 7): a number is a
 * number field, the rules a list of rule texts, the reaction palette rows to add, the server
 * profile a group of fields; nothing is typed as JSON. Each change reaches /config.json.
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { expectAccessible, launchBrowser, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let api: ReturnType<typeof client>;
let admin: Person;

interface Config {
  siteTitle: string;
  rules: Array<{ id: string; text: string }>;
  reactEmojis: Array<{ emoji: string; name: string }>;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  api = client(server.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admin = await personFor(browser, server.url, { token: login.body.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const config = async () => (await api.get<Config>('/config.json')).body;

test('the admin edits settings through fields made from their schema', async () => {
  const { page } = admin;
  await page.goto('/admin/settings');
  const upload = page.getByTestId('setting').filter({ hasText: 'maxUploadSize' });
  await upload.getByRole('spinbutton', { name: 'Upload limit in MB' }).fill('50');
  await upload.getByRole('button', { name: 'Save maxUploadSize' }).click();
  await upload.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  const rules = page.getByTestId('setting').filter({ hasText: 'rules' });
  await rules.getByRole('button', { name: 'Add a rule' }).click();
  await rules.getByLabel('Rule 1').fill('Be kind to each other');
  await rules.getByRole('button', { name: 'Add a rule' }).click();
  await rules.getByLabel('Rule 2').fill('No advertising');
  await rules.getByRole('button', { name: 'Save rules' }).click();
  await rules.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  const palette = page.getByTestId('setting').filter({ hasText: 'reactEmojis' });
  await palette.getByRole('button', { name: 'Add an entry' }).click();
  const added = palette.getByRole('group', { name: 'Entry 8' });
  await added.getByLabel('Name').fill('Party');
  await added.getByLabel('Emoji').fill('🎉');
  await palette.getByRole('button', { name: 'Remove entry 7' }).click();
  await palette.getByRole('button', { name: 'Save reactEmojis' }).click();
  await palette.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  const profile = page.getByTestId('setting').filter({ hasText: 'Server public profile' });
  await profile.getByRole('group', { name: 'Server public profile' }).getByLabel('Name').fill('Garden Club');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await profile.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await expectAccessible(page, 'settings forms');
  await screenshot(page, 'admin-settings-forms');

  const now = await config();
  expect(now.siteTitle).toBe('Garden Club');
  expect(now.rules.map((r) => r.text)).toEqual(['Be kind to each other', 'No advertising']);
  expect(now.reactEmojis.map((e) => e.name)).toContain('Party');
  expect(now.reactEmojis.map((e) => e.name)).not.toContain('Puke');

  // After a reload the forms show what was stored.
  await page.reload();
  expect(await upload.getByRole('spinbutton', { name: 'Upload limit in MB' }).inputValue()).toBe('50');
  expect(await rules.getByLabel('Rule 2').inputValue()).toBe('No advertising');
  expect(await palette.getByRole('group', { name: 'Entry 7' }).getByLabel('Name').inputValue()).toBe('Party');
  expect(admin.problems).toEqual([]);
});
