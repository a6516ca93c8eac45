/**
 * The browser tier's harness: Debian's Chromium through playwright-core, one browser per test
 * file and one context per person; axe-core checks of each screen; a screenshot of each story's
 * last screen under test-artifacts/screenshots (ignored by git; CI keeps it as an artifact).
 * Every page fails its test on an uncaught script error or a Content-Security-Policy violation.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';

// Test-only configuration, like the harness's other TEST_* variables.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = join(__dirname, '..', '..', 'test-artifacts', 'screenshots');
export const PHONE = { width: 375, height: 740 };
export const DESKTOP = { width: 1280, height: 860 };

// From docs/field-notes: headless Debian Chromium as root, nothing phoning home.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true });
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and CSP violations seen on this person's pages. */
  problems: string[];
}

/**
 * A browser context for one person, signed in with `token` when given. The browser's language is
 * `locale` (what `navigator.languages` and Accept-Language say; the app follows it): English
 * unless a story asks for another, so no story depends on the machine's own language.
 */
export async function personFor(
  browser: Browser,
  baseURL: string,
  opts: { token?: string; viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<Person> {
  const context = await browser.newContext({
    baseURL,
    viewport: opts.viewport ?? DESKTOP,
    locale: opts.locale ?? 'en-US',
  });
  if (opts.token)
    await context.addInitScript((t) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('agora.token', t);
        sessionStorage.setItem('seeded', '1');
      }
    }, opts.token);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text()))
      problems.push(`CSP: ${msg.text()}`);
  });
  return { context, page, problems };
}

export interface TwoPeople {
  server: TestServer;
  api: ReturnType<typeof client>;
  alice: Actor;
  bob: Actor;
  aliceView: Person;
  bobView: Person;
}

/**
 * The social stories' set-up, as hooks of the calling file: a server and a browser, alice and bob
 * registered and each signed in in a context of their own; after each test, neither page may have
 * seen a problem. The object returned is filled in by the first beforeAll, which runs before the
 * file's own (which may add follows, circles, posts through `api`).
 */
export function twoPeople(): TwoPeople {
  const people = {} as TwoPeople;
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
    const api = client(server.url);
    const [alice, bob] = [await registerActor(api, 'alice'), await registerActor(api, 'bob')];
    const aliceView = await personFor(browser, server.url, { token: alice.token });
    const bobView = await personFor(browser, server.url, { token: bob.token });
    Object.assign(people, { server, api, alice, bob, aliceView, bobView });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => {
    for (const p of [people.aliceView, people.bobView]) expect(p?.problems ?? []).toEqual([]);
  });
  return people;
}

/**
 * The admin stories' set-up, as hooks of the calling file: a server and a browser, and the
 * operator's admin signed in in a context of their own. The object returned is filled in by the
 * first beforeAll.
 */
export function theAdmin(): { server: TestServer; admin: Person } {
  const held = {} as { server: TestServer; admin: Person };
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([bootServer(), launchBrowser()]);
    const login = await client(server.url).post<{ token: string }>('/auth/login', ADMIN);
    Object.assign(held, { server, admin: await personFor(browser, server.url, { token: login.body.token }) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return held;
}

let axeSource: string | undefined;

/** axe-core's WCAG 2.1 A/AA rules on the current screen; throws listing every violation. */
async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // evaluate() runs through the DevTools protocol, outside the page's CSP.
  await page.evaluate(`${axeSource}\n;void 0`);
  // A string, not a function: the root tsconfig has no DOM types (server code must not see them).
  return page.evaluate<string[]>(`(async () => {
    const res = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return res.violations.map((v) =>
      v.id + ' (' + v.impact + '): ' + v.help + ' at ' + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target)));
  })()`);
}

/** The theme the app shows (`data-theme` on `<html>`). */
export function themeOf(page: Page): Promise<string | null> {
  return page.evaluate<string | null>('document.documentElement.dataset.theme ?? null');
}

/** Waits until the app shows `theme` (a locator: the page's CSP refuses evaluated predicates). */
export async function themeShown(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
}

/**
 * axe-core on the current screen in both themes: as it is, then with the system asking for dark
 * (`prefers-color-scheme`), which the app follows unless the person chose a theme in the app.
 * Throws listing every violation of either.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const before = await themeOf(page);
  const found = (await axeViolations(page)).map((v) => `[${before ?? 'light'}] ${v}`);
  await page.emulateMedia({ colorScheme: before === 'dark' ? 'light' : 'dark' });
  const chosen = await page.evaluate<string | null>("localStorage.getItem('agora.theme')");
  if (!chosen) await themeShown(page, before === 'dark' ? 'light' : 'dark');
  const other = await themeOf(page);
  if (other !== before) found.push(...(await axeViolations(page)).map((v) => `[${other}] ${v}`));
  await page.emulateMedia({ colorScheme: before === 'dark' ? 'dark' : 'light' });
  if (!chosen) await themeShown(page, before === 'dark' ? 'dark' : 'light');
  if (found.length) throw new Error(`accessibility violations on ${screen}:\n${found.join('\n')}`);
}

/** A screenshot of the story's last screen, kept as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The main landmark's text once `text` appears in it. */
export async function mainShows(page: Page, text: string | RegExp): Promise<string> {
  try {
    await page.locator('main').getByText(text).first().waitFor();
  } catch (err) {
    // What the screen showed instead, for whoever reads the failure.
    await screenshot(page, `failed-${String(text).replace(/\W+/g, '-').slice(0, 40)}`);
    throw err;
  }
  return (await page.locator('main').textContent()) ?? '';
}

/** Does the page scroll sideways (a layout wider than the viewport)? */
export function overflowsX(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth + 1');
}

/** Waits until the unread badge shows `n` (the badge polls while the app is open). */
export async function badgeShows(page: Page, n: number, timeout = 30_000): Promise<void> {
  const badge = page.getByTestId('unread-badge');
  if (n === 0) await badge.waitFor({ state: 'detached', timeout });
  else await badge.filter({ hasText: new RegExp(`^${n}$`) }).waitFor({ timeout });
}

/**
 * Pretends the tab was hidden or shown again (headless Chromium never hides a page by itself):
 * what `visibilitychange` listeners such as TanStack Query's focus manager see.
 */
export async function setTabVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate(`(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${state === 'hidden'} });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  })()`);
}
