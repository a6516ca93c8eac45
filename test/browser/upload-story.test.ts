/**
 * Files in the browser (issue 12's POST /files and GET /files/:id): alice posts to her circle with an image and
 * watches the upload progress; bob, a member who follows her, sees the image; carol, not a
 * member, gets no bytes; alice sets an avatar.
 */
import type { TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { expectAccessible, screenshot, twoPeople, type Person } from './harness';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const people = twoPeople();
let server: TestServer;
let alice: Actor, bob: Actor, carol: Actor;
let aliceView: Person, bobView: Person;
let circleId: string;
let imageUrl: string;

beforeAll(async () => {
  ({ server, alice, bob, aliceView, bobView } = people);
  const { api } = people;
  carol = await registerActor(api, 'carol');
  const circle = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Family', members: [bob.id] },
  });
  circleId = circle.body.createdId!;
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  await outbox(api, bob, { type: 'Add', target: me.body.user.following, object: alice.id });
});

test('alice posts to her circle with an image, with upload progress', async () => {
  const { page } = aliceView;
  await page.goto(`/circles/${encodeURIComponent(circleId)}`);
  await page.getByLabel('Post text (markdown)').fill('Our new garden');
  await page
    .getByLabel('Add image')
    .setInputFiles({ name: 'garden.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('upload-done').waitFor();
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await page.getByTestId('posted').getByRole('link', { name: 'View your post' }).click();
  const img = page.getByTestId('post').locator('img.post-image');
  await img.waitFor();
  // The image is private to the circle, so the page shows it from an object URL; the file's own
  // address is on the element.
  imageUrl = new URL((await img.getAttribute('data-file'))!, server.url).toString();
  expect(imageUrl).toMatch(/\/files\/file/);
  await expectAccessible(page, 'post with image');
});

test('bob sees the image; carol gets no bytes', async () => {
  const { page } = bobView;
  await page.goto('/');
  const img = page.getByTestId('post').filter({ hasText: 'Our new garden' }).locator('img.post-image');
  await img.waitFor();
  expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  await screenshot(page, 'post-with-image');
  const asCarol = await fetch(imageUrl, { headers: { authorization: `Bearer ${carol.token}` } });
  expect(asCarol.status).toBe(404);
  expect((await fetch(imageUrl)).status).toBe(404);
});

test('alice sets an avatar', async () => {
  const { page } = aliceView;
  await page.goto('/settings');
  await page
    .getByLabel('Choose an image')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await page.locator('.card img.avatar').waitFor();
  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  expect(await page.locator('.profile img.avatar').getAttribute('src')).toMatch(/\/files\//);
});
