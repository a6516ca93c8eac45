/**
 * Issue 26, translations (ADR 0026): a browser whose language is German gets the app in German,
 * signed out and signed in: words, plural forms, dates by the German calendar conventions, and
 * `<html lang="de">`. Switching the Language setting to English changes the screen at once,
 * without a reload (the page and what was typed stay), and the choice survives a reload; choosing
 * the browser's language again brings German back. The admin dashboard speaks German too. axe
 * in both themes in each language.
 */
import type { Browser, Page } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

let server: TestServer;
let browser: Browser;
let alice: Actor, bob: Actor;
let visitor: Person, bobView: Person;

beforeAll(async () => {
  [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
  const api = client(server.url);
  [alice, bob] = [await registerActor(api, 'alice'), await registerActor(api, 'bob')];
  await outbox(api, bob, { type: 'Follow', object: alice.id });
  const made = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Brot aus dem Holzofen' },
  });
  if (made.status !== 201) throw new Error(`post: ${made.status} ${JSON.stringify(made.body)}`);
  await outbox(api, bob, { type: 'Reply', to: made.body.createdId, object: { source: 'Lecker!' } });
  visitor = await personFor(browser, server.url, { locale: 'de-DE' });
  bobView = await personFor(browser, server.url, { token: bob.token, locale: 'de-DE' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(() => {
  for (const p of [visitor, bobView]) expect(p?.problems ?? []).toEqual([]);
});

const htmlLang = (page: Page) => page.evaluate<string>('document.documentElement.lang');
const GERMAN_DATE = /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/;
const ENGLISH_DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/;

test('a signed-out visitor whose browser speaks German gets the app in German', async () => {
  const { page } = visitor;
  await page.goto('/');
  await mainShows(page, 'Willkommen bei');
  expect(await htmlLang(page)).toBe('de');
  const nav = page.getByRole('navigation', { name: 'Hauptmenü' });
  await nav.getByRole('link', { name: 'Anmelden' }).waitFor();
  await nav.getByRole('link', { name: 'Entdecken' }).waitFor();
  const card = page.getByTestId('post').filter({ hasText: 'Brot aus dem Holzofen' });
  await card.getByRole('link', { name: '1 Antwort' }).waitFor();
  expect(((await card.locator('time').textContent()) ?? '').trim()).toMatch(GERMAN_DATE);
  await expectAccessible(page, 'the signed-out home in German');

  await page.getByRole('link', { name: 'Anmelden' }).first().click();
  await page.getByLabel('Benutzername').waitFor();
  await page.getByLabel('Passwort').waitFor();
  await expectAccessible(page, 'log in in German');
});

test('signed in, German follows the browser; the setting switches to English without a reload', async () => {
  const { page } = bobView;
  await page.goto('/');
  await page.getByRole('heading', { name: 'Startseite', level: 1 }).waitFor();
  const card = page.getByTestId('post').filter({ hasText: 'Brot aus dem Holzofen' });
  await card.getByRole('link', { name: '1 Antwort' }).waitFor();
  await card.getByRole('button', { name: 'Antworten', exact: true }).waitFor();
  await page.getByLabel('Inhaltswarnung (optional)').waitFor();
  await expectAccessible(page, 'home in German');

  // Something typed, and a mark on the page: both must survive the switch (no reload).
  await page.getByLabel('Beitragstext (Markdown)').fill('Noch nicht gesendet');
  await page.evaluate("window.__stillHere = 'yes'");
  const language = page.getByLabel('Sprache');
  expect(await language.inputValue()).toBe('browser');
  await language.selectOption('en');

  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await card.getByRole('link', { name: '1 reply' }).waitFor();
  expect(((await card.locator('time').textContent()) ?? '').trim()).toMatch(ENGLISH_DATE);
  expect(await htmlLang(page)).toBe('en');
  expect(await page.evaluate<string | undefined>('window.__stillHere')).toBe('yes');
  expect(await page.getByLabel('Post text (markdown)').inputValue()).toBe('Noch nicht gesendet');
  await page.getByLabel('Language').waitFor();
  await expectAccessible(page, 'home switched to English');

  // The choice is kept (beside the theme) and wins over the browser's language after a reload.
  expect(await page.evaluate<string | null>("localStorage.getItem('agora.language')")).toBe('en');
  await page.reload();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  expect(await htmlLang(page)).toBe('en');

  // Back to the browser's language: German again, still without a reload.
  await page.getByLabel('Language').selectOption('browser');
  await page.getByRole('heading', { name: 'Startseite', level: 1 }).waitFor();
  expect(await page.evaluate<string | null>("localStorage.getItem('agora.language')")).toBeNull();
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  await mainShows(page, 'Passwort ändern');
  await expectAccessible(page, 'settings in German');
  await screenshot(page, 'language-story');
});

test('the admin dashboard speaks German too', async () => {
  const api = client(server.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  expect(login.status).toBe(200);
  const admin = await personFor(browser, server.url, { token: login.body.token, locale: 'de-DE' });
  const { page } = admin;
  await page.goto('/admin');
  await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Prozess' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Verwaltung', exact: true });
  await nav.getByRole('link', { name: 'Meldungen' }).click();
  await mainShows(page, 'Keine Meldungen offen.');
  await expectAccessible(page, 'the flag queue in German');
  await nav.getByRole('link', { name: 'Konten' }).click();
  await page.getByRole('columnheader', { name: 'Beigetreten' }).waitFor();
  await page.getByRole('button', { name: 'bob deaktivieren' }).waitFor();
  await expectAccessible(page, 'users in German');
  await nav.getByRole('link', { name: 'Einstellungen' }).click();
  await page.getByRole('heading', { name: 'Servereinstellungen', level: 1 }).waitFor();
  expect(admin.problems).toEqual([]);
  await admin.context.close();
});
