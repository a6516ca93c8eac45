/**
 * Issue 26, media and sensitivity (ADR 0021): alice writes a post with an image, describes the
 * image, puts a content warning on the post and marks its media sensitive. Bob opens it: the
 * warning shows and the post stays collapsed until he presses Show (from the keyboard); the
 * image is blurred until he asks, and its alt text is alice's description, never the post text.
 * axe stays clean in both themes at each step.
 */
import { client, type TestServer } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import { expectAccessible, screenshot, twoPeople, type Person } from './harness';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const DESCRIPTION = 'Waves rolling onto a sandy beach';

const people = twoPeople();
let server: TestServer;
let alice: Actor, bob: Actor;
let aliceView: Person, bobView: Person;
let postPath: string;

beforeAll(() => {
  ({ server, alice, bob, aliceView, bobView } = people);
});

test('alice describes her image, adds a content warning and marks the media sensitive', async () => {
  const { page } = aliceView;
  await page.goto('/');
  await page.getByLabel('Post text (markdown)').fill('Beach day, finally');
  await page.getByLabel('Add image').setInputFiles({ name: 'beach.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('upload-done').waitFor();
  await page.getByLabel('Image description (alt text) for beach.png').fill(DESCRIPTION);
  await page.getByLabel('Content warning (optional)').fill('sunburn');
  await page.getByLabel('Sensitive media (blurred until clicked)').check();
  await expectAccessible(page, 'compose with a described image and a content warning');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const link = page.getByTestId('posted').getByRole('link', { name: 'View your post' });
  postPath = (await link.getAttribute('href'))!;
  expect(postPath).toMatch(/^\/posts\//);
  // The post text is the text alice wrote; the description went to the file.
  const res = await client(server.url).get<{ body: string; media: Array<{ description: string }> }>(
    postPath.replace(/^\/posts\//, '/posts/'),
    { token: alice.token },
  );
  expect(res.body.body).toContain('Beach day, finally');
  expect(res.body.body).not.toContain(DESCRIPTION);
  expect(res.body.media[0]?.description).toBe(DESCRIPTION);
});

test('bob sees the warning first, opens the post from the keyboard, then clicks the blurred image open', async () => {
  const { page } = bobView;
  await page.goto(postPath);
  const post = page.getByTestId('post');
  await post.getByText('sunburn').waitFor();
  const show = post.getByRole('button', { name: 'Show', exact: true });
  expect(await show.getAttribute('aria-expanded')).toBe('false');
  expect(await post.getByText('Beach day, finally').count()).toBe(0);
  expect(await post.locator('img').count()).toBe(0);
  await expectAccessible(page, 'post behind a content warning');

  await show.focus();
  await page.keyboard.press('Enter');
  await post.getByText('Beach day, finally').waitFor();
  expect(await post.getByRole('button', { name: 'Hide', exact: true }).getAttribute('aria-expanded')).toBe(
    'true',
  );
  const img = post.locator('img.post-image');
  await img.waitFor();
  expect(await img.getAttribute('alt')).toBe(DESCRIPTION);
  expect(await img.getAttribute('class')).toContain('blurred');
  await expectAccessible(page, 'sensitive image, blurred');

  // A pointer reaches the button over the image (a click checks it is the element hit there).
  await post.getByRole('button', { name: 'Sensitive media: show' }).click();
  await post.locator('img.post-image:not(.blurred)').waitFor();
  expect(await post.getByRole('button', { name: 'Sensitive media: show' }).count()).toBe(0);
  expect(await post.locator('img.post-image').getAttribute('alt')).toBe(DESCRIPTION);
  await expectAccessible(page, 'sensitive image, shown');
  await screenshot(page, 'media-sensitive-shown');
});

test('a reply with a content warning stays collapsed in the thread until Show', async () => {
  const api = client(server.url);
  const postId = decodeURIComponent(postPath.replace(/^\/posts\//, ''));
  const reply = await api.post(
    '/outbox',
    { type: 'Reply', to: postId, object: { content: 'Wear sunscreen next time', contentWarning: 'advice' } },
    { token: bob.token },
  );
  expect(reply.status).toBe(201);
  const { page } = aliceView;
  await page.goto(postPath);
  const item = page.getByTestId('reply').filter({ hasText: 'advice' });
  await item.waitFor();
  expect(await item.getByText('Wear sunscreen next time').count()).toBe(0);
  await item.getByRole('button', { name: 'Show', exact: true }).click();
  await item.getByText('Wear sunscreen next time').waitFor();
  await expectAccessible(page, 'a reply opened from behind its warning');
});
