/**
 * Lookups between two Agora servers (each a standalone server with its own database, the other
 * reached by name through FEDERATION_HOST_MAP): B's users look up A's users and groups in every
 * mode of spec 1.8, signed with B's key, so A answers what B may see. The activities that travel
 * between two servers (follow, posts, their edits and deletes, unfollow, and the rest) are proven
 * with two compiled servers as processes in `test/federation/two-servers.test.ts`.
 */
import { client, type TestServer } from '../harness/standalone';
import { bootPair } from '../harness/two-servers';
import { outbox, registerActor, type Actor } from '../harness/actors';

const A = 'social-a.test';
const B = 'social-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  [a, b] = await bootPair(A, B);
  alice = await registerActor(client(a.url), 'alice');
  bob = await registerActor(client(b.url), 'bob');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test("lookups of A's objects from B: local finds nothing, remote and prefer-local ask A", async () => {
  const apiA = client(a.url);
  const apiB = client(b.url);
  const user = (mode: string) =>
    apiB.get<{ item: Record<string, unknown> }>(`/users/${encodeURIComponent(alice.id)}?mode=${mode}`, {
      token: bob.token,
    });
  expect((await user('local')).status).toBe(404);
  for (const mode of ['remote', 'prefer-local', 'both']) {
    const res = await user(mode);
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ id: alice.id, username: 'alice', originDomain: A });
    expect(res.body.item).not.toHaveProperty('email');
  }
  // A group A shows to everyone, and one it shows to its own users only. Looked up several times
  // within a second: each signed request carries its own nonce, so none is taken for a replay.
  const group = async (to: string) =>
    (await outbox(apiA, alice, { type: 'Create', objectType: 'Group', to, object: { name: `G ${to}` } })).body
      .createdId!;
  const open = await group('@public');
  const locals = await group(`@${A}`);
  const got = await apiB.get<{ item: Record<string, unknown> }>(`/groups/${open}?mode=remote`, {
    token: bob.token,
  });
  expect(got.status).toBe(200);
  expect(got.body.item).toMatchObject({ id: open, name: 'G @public', originDomain: A });
  // A keeps its @social-a.test group from other servers: its 403 comes through.
  expect((await apiB.get(`/groups/${locals}?mode=remote`, { token: bob.token })).status).toBe(404);
  expect((await apiB.get(`/groups/${open}`, { token: bob.token })).status).toBe(404);
});
