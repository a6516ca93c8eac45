/** Uses GET /search (issue 12): search finds what the viewer may see and nothing else. */
import type { Browser } from 'playwright-core';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor, carol: Actor;
let carolView: Person;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  [alice, carol] = [await registerActor(api, 'alice'), await registerActor(api, 'carol')];
  const circle = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Secret' },
  });
  await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    // A `#…` query matches the post's `tags` and the hashtags of its body (ADR 0008).
    object: { type: 'Note', content: 'Marmalade recipe #cooking', tags: ['cooking'] },
  });
  await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: circle.body.createdId,
    object: { type: 'Note', content: 'Marmalade secret ingredient' },
  });
  carolView = await personFor(browser, server.url, { token: carol.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('carol searches and finds only the public post', async () => {
  const { page } = carolView;
  await page.goto('/search');
  await page.getByLabel('Search for').fill('marmalade');
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByTestId('search-results');
  await results.waitFor();
  const text = await results.textContent();
  expect(text).toContain('Marmalade recipe');
  expect(text).not.toContain('secret');
  await page.goto('/search?q=%23cooking&type=posts');
  expect(await mainShows(page, 'Marmalade recipe')).not.toContain('secret');
  await expectAccessible(page, 'search');
  await screenshot(page, 'search');
  expect(carolView.problems).toEqual([]);
});
