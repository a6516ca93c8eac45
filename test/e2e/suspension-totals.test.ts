/**
 * A suspended account's share leaves the totals and counters a list or a pull reads from its
 * counters (ADR 0028): a circle timeline's `totalItems` (its public posts for every viewer, its
 * server posts for a local one) and the `replyCount` of the posts a peer pulls (`GET /outbox`),
 * as an anonymous reader sees them; the restore brings them back as they were.
 */
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let bob: Actor;
let carol: Actor;
let following: string;
let alicePost: string;
const enc = encodeURIComponent;

type Row = Record<string, unknown> & { id: string };

async function created(who: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(api, who, activity);
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

const post = (who: Actor, content: string, to = '@public') =>
  created(who, { type: 'Create', objectType: 'Post', to, object: { content } });

async function timeline() {
  const res = await api.get<{ totalItems: number; orderedItems: Row[] }>(`/circles/${enc(following)}/posts`, {
    token: alice.token,
  });
  expect(res.status).toBe(200);
  return { total: res.body.totalItems, shown: res.body.orderedItems.length };
}

/** alice's post as an unsigned pull (what any peer or anonymous reader gets) shows it. */
async function pulled() {
  const res = await api.get<{ items: Row[] }>(`/outbox?from=${enc(alice.id)}`);
  expect(res.status).toBe(200);
  const p = res.body.items.find((i) => i.id === alicePost);
  return { replyCount: p?.replyCount, authors: [...new Set(res.body.items.map((i) => i.actorId))] };
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'st_alice');
  bob = await registerActor(api, 'st_bob');
  carol = await registerActor(api, 'st_carol');
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
  following = me.body.user.following;
  for (const who of [bob, carol])
    expect((await outbox(api, alice, { type: 'Follow', object: who.id })).status).toBe(201);
  await post(bob, 'Tide tables for the week');
  await post(bob, 'Keepers only: the spare key is under the mat', '@server');
  await post(carol, 'Gulls on the gallery again');
  alicePost = await post(alice, 'Who moved the oil can?');
  await created(bob, { type: 'Reply', to: alicePost, object: { content: 'I did, sorry' } });
  // bob's two posts, carol's and alice's own.
  await waitFor(async () => (await timeline()).shown === 4, 20_000);
});
afterAll(async () => {
  await server?.close();
});

test("while an account is suspended, a timeline's total and a pulled post's replyCount leave its share out; the restore brings them back", async () => {
  const before = { timeline: await timeline(), pulled: await pulled() };
  expect(before).toEqual({
    timeline: { total: 4, shown: 4 },
    pulled: { replyCount: 1, authors: [alice.id] },
  });

  expect((await api.call('DELETE', `/admin/users/${enc(bob.id)}`, { token: admin })).status).toBe(200);
  expect({ timeline: await timeline(), pulled: await pulled() }).toEqual({
    timeline: { total: 2, shown: 2 },
    pulled: { replyCount: 0, authors: [alice.id] },
  });

  expect((await api.call('POST', `/admin/users/${enc(bob.id)}/restore`, { token: admin })).status).toBe(200);
  expect({ timeline: await timeline(), pulled: await pulled() }).toEqual(before);
});
