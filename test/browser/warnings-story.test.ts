/**
 * Issue 26, content warnings when editing and replying (ADR 0021): alice adds a content warning
 * and marks the media sensitive on a post she already published, from the card's Edit form, then
 * removes the warning again; bob replies with a content warning from the reply box and alice's
 * reader sees the reply collapsed behind it. axe in both themes at each step.
 */
import type { client } from '../harness/standalone';
import { outbox, type Actor } from '../harness/actors';
import { expectAccessible, screenshot, twoPeople, type Person } from './harness';

interface Readable {
  id: string;
  contentWarning?: string;
  sensitive?: boolean;
  body?: string;
}

const people = twoPeople();
let alice: Actor;
let aliceView: Person, bobView: Person;
let api: ReturnType<typeof client>;
let postId: string;

beforeAll(async () => {
  ({ api, alice, aliceView, bobView } = people);
  const made = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { type: 'Note', source: 'The last episode, talked through' },
  });
  if (made.status !== 201) throw new Error(`post: ${made.status} ${JSON.stringify(made.body)}`);
  postId = made.body.createdId!;
});

const postPath = () => `/posts/${encodeURIComponent(postId)}`;
const readPost = async (id: string) => (await api.get<Readable>(`/posts/${encodeURIComponent(id)}`)).body;

test('alice adds a content warning and sensitive media to her published post, then removes the warning', async () => {
  const { page } = aliceView;
  await page.goto(postPath());
  const card = page.getByTestId('post');
  await card.getByText('The last episode, talked through').waitFor();
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = page.getByRole('form', { name: 'Edit post' });
  await form.getByLabel('Content warning (optional)').fill('spoilers');
  await form.getByLabel('Sensitive media (blurred until clicked)').check();
  await expectAccessible(page, 'edit form with a content warning');
  await form.getByRole('button', { name: 'Save' }).click();
  // The form closes once the server took the change and the post was read again.
  await form.waitFor({ state: 'detached' });
  await card.getByText('spoilers').waitFor();
  await card.getByRole('button', { name: 'Show', exact: true }).waitFor();
  const stored = await readPost(postId);
  expect(stored.contentWarning).toBe('spoilers');
  expect(stored.sensitive).toBe(true);

  // Bob sees the post collapsed behind the warning.
  await bobView.page.goto(postPath());
  const seen = bobView.page.getByTestId('post');
  await seen.getByText('spoilers').waitFor();
  expect(await seen.getByText('The last episode, talked through').count()).toBe(0);

  // The edit form starts from what is stored; emptying the warning removes it.
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  const again = page.getByRole('form', { name: 'Edit post' });
  expect(await again.getByLabel('Content warning (optional)').inputValue()).toBe('spoilers');
  expect(await again.getByLabel('Sensitive media (blurred until clicked)').isChecked()).toBe(true);
  await again.getByLabel('Content warning (optional)').fill('');
  await again.getByRole('button', { name: 'Save' }).click();
  await again.waitFor({ state: 'detached' });
  await card.getByText('The last episode, talked through').waitFor();
  const cleared = await readPost(postId);
  expect(cleared.contentWarning ?? '').toBe('');
  expect(cleared.sensitive).toBe(true);
});

test('bob replies with a content warning; the reply shows collapsed behind it', async () => {
  const { page } = bobView;
  await page.goto(postPath());
  await page.getByLabel('Your reply').fill('The twist was earned');
  await page.getByLabel('Reply content warning (optional)').fill('ending');
  // React keeps a controlled field's value attribute in step, so a locator can wait on it.
  const box = page.locator('form', { has: page.getByLabel('Your reply') });
  await box.locator('input[name="contentWarning"][value="ending"]').waitFor();
  await expectAccessible(page, 'reply box with a content warning');
  await page.getByRole('button', { name: 'Reply', exact: true }).first().click();
  const reply = page.getByTestId('reply').filter({ hasText: 'ending' });
  await reply.getByRole('button', { name: 'Show', exact: true }).waitFor();
  expect(await reply.getByText('The twist was earned').count()).toBe(0);
  // The box is emptied once the thread has the reply, warning included.
  await box.locator('input[name="contentWarning"][value=""]').waitFor();
  expect(await box.getByLabel('Reply content warning (optional)').inputValue()).toBe('');

  const replies = await api.get<{ orderedItems: Readable[] }>(`/posts/${encodeURIComponent(postId)}/replies`);
  const stored = replies.body.orderedItems.find((r) => r.contentWarning === 'ending');
  expect(stored?.body).toContain('The twist was earned');

  await aliceView.page.goto(postPath());
  const seen = aliceView.page.getByTestId('reply').filter({ hasText: 'ending' });
  const show = seen.getByRole('button', { name: 'Show', exact: true });
  await show.click();
  await seen.getByText('The twist was earned').waitFor();
  await expectAccessible(aliceView.page, 'a reply behind a content warning');
  await screenshot(aliceView.page, 'warnings-story');
});
