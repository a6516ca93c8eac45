/** A user's new name reaches the copies stored on their posts and in other people's circles. */
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob] = (await Promise.all(['alice', 'bob'].map((n) => registerActor(api, n)))) as [Actor, Actor];
});
afterAll(async () => {
  await server?.close();
});

test('renaming updates actor copies on content and member entries in circles', async () => {
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'hello' },
  });
  const bobMe = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  expect(
    (await outbox(api, bob, { type: 'Add', target: bobMe.body.user.following, object: alice.id })).status,
  ).toBe(201);

  const rename = await outbox(api, alice, {
    type: 'Update',
    target: alice.id,
    object: { profile: { name: 'Alice Liddell' } },
  });
  expect(rename.status).toBe(201);

  await waitFor(async () => {
    const p = await api.get<{ actor?: { name?: string } }>(`/posts/${post.body.createdId}`);
    return p.body.actor?.name === 'Alice Liddell';
  }, 10_000);
  await waitFor(async () => {
    const members = await api.get<{ orderedItems: Array<{ id: string; name?: string }> }>(
      `/circles/${bobMe.body.user.following}/members`,
      { token: bob.token },
    );
    return members.body.orderedItems.find((m) => m.id === alice.id)?.name === 'Alice Liddell';
  }, 10_000);
  // The other members of the circle are untouched.
  const members = await api.get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${bobMe.body.user.following}/members`,
    { token: bob.token },
  );
  expect(members.body.orderedItems.map((m) => m.id).sort()).toEqual([alice.id, bob.id].sort());
});
