/**
 * Issue 26, actions everywhere and one renderer: bob replies, reacts, bookmarks and shares from
 * timeline and profile cards; alice edits and deletes her own post and a reply (with a
 * confirmation); the compose preview is exactly the published body for 30 markdown samples;
 * hashtags and mentions are links; a bio is rendered and comes back in the settings form; search
 * results show author, date and excerpt instead of raw ids; a validation error names its field.
 */
import type { client } from '../harness/standalone';
import { outbox, type Actor } from '../harness/actors';
import { MARKDOWN_CORPUS } from '@agora/common/content';
import { expectAccessible, mainShows, screenshot, twoPeople, type Person } from './harness';

const people = twoPeople();
let alice: Actor, bob: Actor;
let aliceView: Person, bobView: Person;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  ({ api, alice, bob, aliceView, bobView } = people);
  await outbox(api, bob, { type: 'Follow', object: alice.id });
});

test('bob replies, reacts, bookmarks and shares from the cards on his home and on a profile', async () => {
  const made = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Tomatoes are ripe' },
  });
  expect(made.status).toBe(201);
  const { page } = bobView;
  await page.goto('/');
  const card = page.getByTestId('post').filter({ hasText: 'Tomatoes are ripe' });
  await card.waitFor();
  await card.getByRole('button', { name: /^Like/ }).click();
  expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('true');
  await card.getByRole('button', { name: 'Like 1' }).waitFor();
  await card.getByRole('button', { name: 'Reply', exact: true }).click();
  await card.getByLabel('Your reply').fill('Save me some!');
  await card.getByRole('button', { name: 'Reply', exact: true }).last().click();
  await card.getByRole('link', { name: '1 reply' }).waitFor();
  await card.getByRole('button', { name: 'Bookmark' }).click();
  await card.getByText('Bookmarked.').waitFor();
  await card.getByRole('button', { name: 'Share' }).click();
  await card
    .getByText(/Link copied|Link to share/)
    .first()
    .waitFor();
  await expectAccessible(page, 'home with card actions');

  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  const onProfile = page.getByTestId('post').filter({ hasText: 'Tomatoes are ripe' });
  for (const name of [/^Like/, /^Reply$/, /^Bookmark$/, /^Share$/])
    await onProfile.getByRole('button', { name }).waitFor();

  await page.goto('/bookmarks');
  await mainShows(page, 'Tomatoes are ripe');
});

test('a refused reaction rolls back and says so', async () => {
  const { page } = bobView;
  await page.goto('/');
  const card = page.getByTestId('post').filter({ hasText: 'Tomatoes are ripe' });
  await card.waitFor();
  await page.route('**/outbox', (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Forbidden' }),
    }),
  );
  await card.getByRole('button', { name: /^Like/ }).click();
  await card.getByRole('alert').filter({ hasText: 'Reaction not saved' }).waitFor();
  await page.unroute('**/outbox');
  // Bob had liked it: the like is back as it was.
  expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('true');
  expect(await card.getByRole('button', { name: /^Like/ }).textContent()).toMatch(/1$/);
});

test('alice edits and deletes her own post and a reply, each after a confirmation', async () => {
  const { page } = aliceView;
  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  const card = page.getByTestId('post').filter({ hasText: 'Tomatoes are ripe' });
  await card.getByRole('button', { name: 'Edit' }).click();
  expect(await card.getByLabel('Post text').inputValue()).toBe('Tomatoes are ripe');
  await card.getByLabel('Post text').fill('Tomatoes are **very** ripe');
  await card.getByRole('button', { name: 'Save' }).click();
  const edited = page.getByTestId('post').filter({ hasText: 'Tomatoes are very ripe' });
  await edited.locator('strong', { hasText: 'very' }).waitFor();

  await edited.getByRole('link', { name: '1 reply' }).click();
  const reply = page.getByTestId('reply').filter({ hasText: 'Save me some!' });
  await reply.waitFor();
  // Bob's reply is not hers to edit; her own reply is.
  expect(await reply.getByRole('button', { name: 'Edit' }).count()).toBe(0);
  await page.getByLabel('Your reply').fill('Of course');
  await page.getByRole('button', { name: 'Reply', exact: true }).first().click();
  const mine = page.getByTestId('reply').filter({ hasText: 'Of course' });
  await mine.getByRole('button', { name: 'Delete' }).click();
  await mine.getByRole('group', { name: 'Delete this reply?' }).waitFor();
  await expectAccessible(page, 'delete confirmation');
  await mine.getByRole('button', { name: 'Yes, delete' }).click();
  await mine.waitFor({ state: 'detached' });

  const post = page.getByTestId('post').first();
  await post.getByRole('button', { name: 'Delete' }).click();
  await post.getByRole('button', { name: 'Keep it' }).click();
  await post.getByRole('button', { name: 'Delete' }).click();
  await post.getByRole('button', { name: 'Yes, delete' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  await mainShows(page, 'No posts you can see.');
});

test('the compose preview is exactly the published post, for 30 samples', async () => {
  const { page } = aliceView;
  await page.goto('/');
  const preview = page.getByTestId('compose-preview');
  for (const sample of MARKDOWN_CORPUS) {
    const made = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Post',
      to: `@${alice.id.split('@')[2]}`,
      object: { type: 'Note', source: sample },
    });
    expect(made.status).toBe(201);
    const published = await api.get<{ body: string }>(`/posts/${encodeURIComponent(made.body.createdId!)}`, {
      token: alice.token,
    });
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByLabel('Post text (markdown)').fill(sample);
    await page.getByRole('button', { name: 'Preview' }).click();
    await preview.locator('.content').waitFor();
    const shown = await preview.locator('.content').innerHTML();
    // The published HTML as this browser serialises it (`<img />` reads back as `<img>`).
    const body = await page.evaluate<string>(
      `(() => { const t = document.createElement('template'); t.innerHTML = ${JSON.stringify(published.body.body)}; return t.innerHTML; })()`,
    );
    expect([sample, shown]).toEqual([sample, body]);
  }
  await page.getByRole('button', { name: 'Write' }).click();
  await page.getByLabel('Post text (markdown)').fill('');
});

test('hashtags and mentions are links; a bio is rendered and comes back for editing', async () => {
  const { page } = aliceView;
  await page.goto('/settings');
  await page.getByLabel('About you (markdown)').fill('I grow **tomatoes** & #beans, ask @bob@social.test');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Profile saved.').waitFor();
  await page.goto(`/users/${encodeURIComponent(alice.id)}`);
  const bio = page.locator('.profile .content');
  await bio.locator('strong', { hasText: 'tomatoes' }).waitFor();
  expect(await bio.textContent()).not.toContain('**');
  await bio.getByRole('link', { name: '@bob@social.test' }).click();
  await page.getByRole('heading', { name: 'bob' }).waitFor();
  await page.goto('/settings');
  expect(await page.getByLabel('About you (markdown)').inputValue()).toBe(
    'I grow **tomatoes** & #beans, ask @bob@social.test',
  );

  await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Sowing #beans today with @bob@social.test' },
  });
  await page.goto('/');
  const card = page.getByTestId('post').filter({ hasText: 'Sowing' });
  await card.getByRole('link', { name: '#beans' }).click();
  await page.waitForURL(/\/search\?q=%23beans/);
  await page.getByRole('heading', { name: 'Search' }).waitFor();
});

test('search results show author, date and an excerpt, never a raw id', async () => {
  const { page } = bobView;
  await page.goto('/search?q=sowing');
  const results = page.getByTestId('search-results');
  await results.getByRole('link', { name: /Sowing/ }).waitFor();
  const text = (await results.textContent()) ?? '';
  expect(text).not.toMatch(/post:[0-9a-f]/);
  expect(text).toContain('by alice');
  expect(await results.locator('time').count()).toBeGreaterThan(0);
  await expectAccessible(page, 'search results');
  await screenshot(page, 'actions');
});

test('a validation error names the field and says what is wrong', async () => {
  const { page } = aliceView;
  await page.goto('/bookmarks');
  await page.route('**/outbox', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'object.href: must be an http(s) URL' }),
    }),
  );
  await page.getByLabel('Link').fill('https://example.com/x');
  await page.getByRole('button', { name: 'Save bookmark' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toContain('Link: must be an http(s) URL.');
  await page.unroute('**/outbox');
});

test("bob boosts alice's post from its card: the share is in his followers' timeline; Undo takes it back", async () => {
  const made = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'Beans are up' },
  });
  const original = made.body.createdId!;
  await outbox(api, alice, { type: 'Follow', object: bob.id });
  const following = (await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token })).body
    .user.following;
  const sharesInAlicesHome = async () =>
    (
      await api.get<{ orderedItems: { actorId?: string; shareOf?: string }[] }>(
        `/circles/${encodeURIComponent(following)}/posts`,
        { token: alice.token },
      )
    ).body.orderedItems.filter((p) => p.actorId === bob.id && p.shareOf === original);

  const { page } = bobView;
  await page.goto(`/posts/${encodeURIComponent(original)}`);
  const card = page.getByTestId('post').filter({ hasText: 'Beans are up' }).first();
  await card.getByRole('button', { name: 'Boost', exact: true }).click();
  await card.getByText('Boosted to your followers.').waitFor();
  expect(await sharesInAlicesHome()).toHaveLength(1);
  await expectAccessible(page, 'a boosted post');

  await card.getByRole('button', { name: 'Undo boost' }).click();
  await card.getByRole('button', { name: 'Boost', exact: true }).waitFor();
  expect(await sharesInAlicesHome()).toEqual([]);
});
