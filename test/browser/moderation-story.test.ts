/**
 * Issue 26, the admin acts from a flag: two reports of one post show as one card with the post's
 * excerpt; the admin removes the post with a note (both reports resolved); a report of another
 * post ends with its author suspended, after a confirmation.
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let api: ReturnType<typeof client>;
let spammer: Actor, troll: Actor, dave: Actor, erin: Actor;
let spamId: string, rudeId: string;
let admin: Person;

async function post(actor: Actor, source: string): Promise<string> {
  const made = await outbox(api, actor, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source },
  });
  if (made.status !== 201) throw new Error(`post: ${made.status}`);
  return made.body.createdId!;
}

async function report(actor: Actor, target: string, code: string): Promise<void> {
  const res = await outbox(api, actor, { type: 'Flag', target, object: { reason: { code } } });
  if (res.status >= 300) throw new Error(`flag: ${res.status} ${JSON.stringify(res.body)}`);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  api = client(server.url);
  [spammer, troll, dave, erin] = await Promise.all([
    registerActor(api, 'spammer'),
    registerActor(api, 'troll'),
    registerActor(api, 'dave'),
    registerActor(api, 'erin'),
  ]);
  spamId = await post(spammer, 'Cheap watches at example.com');
  rudeId = await post(troll, 'You are all terrible');
  await report(dave, spamId, 'spam');
  await report(erin, spamId, 'spam');
  await report(dave, rudeId, 'harassment');
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admin = await personFor(browser, server.url, { token: login.body.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => expect(admin?.problems ?? []).toEqual([]));

test('two reports of one post are one card; the admin removes the post with a note', async () => {
  const { page } = admin;
  await page.goto('/admin/flags');
  const card = page.getByTestId('flag').filter({ hasText: 'Cheap watches' });
  await card.getByTestId('flag-excerpt').waitFor();
  expect(await card.textContent()).toContain('2 reports');
  expect(await page.getByTestId('flag').count()).toBe(2);
  await expectAccessible(page, 'grouped flags');
  await card.getByLabel('Notes').fill('Advertising');
  await card.getByRole('button', { name: 'Remove the post' }).click();
  await card.getByRole('group', { name: 'Remove the post?' }).waitFor();
  await card.getByRole('button', { name: 'Yes, remove the post' }).click();
  await card.waitFor({ state: 'detached' });
  expect((await api.get(`/posts/${encodeURIComponent(spamId)}`)).status).toBe(404);
  await page.getByLabel('Show').selectOption('resolved');
  const closed = page.getByTestId('flag').filter({ hasText: '2 reports' });
  await closed.waitFor();
  expect(await closed.textContent()).toContain('Notes: Post removed. Advertising');
});

test('the admin suspends the author of a reported post', async () => {
  const { page } = admin;
  await page.goto('/admin/flags');
  const card = page.getByTestId('flag').filter({ hasText: 'You are all terrible' });
  await card.getByRole('button', { name: 'Suspend the author' }).click();
  await card.getByRole('button', { name: 'Cancel' }).click();
  expect((await api.post('/auth/login', { username: 'troll', password: 'password123' })).status).toBe(200);
  await card.getByRole('button', { name: 'Suspend the author' }).click();
  await card.getByRole('button', { name: 'Yes, suspend the author' }).click();
  await mainShows(page, 'The queue is empty.');
  expect((await api.post('/auth/login', { username: 'troll', password: 'password123' })).status).not.toBe(
    200,
  );
  expect(troll.id).toMatch(/^@troll@/);
  await screenshot(page, 'moderation');
});

test('deactivating a user from the users list asks first; dismissing changes nothing', async () => {
  const { page } = admin;
  await page.goto('/admin/users');
  const button = page.getByRole('button', { name: 'Deactivate erin' });
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await button.click();
  expect(asked).toEqual([
    'Deactivate erin? They cannot sign in, and nobody else sees what they wrote until you restore them.',
  ]);
  expect((await api.post('/auth/login', { username: 'erin', password: 'password123' })).status).toBe(200);
  page.once('dialog', (d) => void d.accept());
  await button.click();
  await page.getByRole('button', { name: 'Deactivate erin' }).waitFor({ state: 'detached' });
  expect((await api.post('/auth/login', { username: 'erin', password: 'password123' })).status).not.toBe(200);
});
