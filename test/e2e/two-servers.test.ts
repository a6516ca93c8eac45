/**
 * Two Agora servers federating for real (each a standalone server with its own database, the
 * other reached by name through FEDERATION_HOST_MAP): bob on B follows alice on A (B delivers
 * the Follow, A records bob as a remote follower), alice posts, and the post travels A → B
 * (planned, signed with A's key, verified by B against the key A publishes, processed) into bob's
 * timeline; her edit and delete follow; bob's Unfollow reaches A. Each test sets up the follow
 * and the post it needs (fixtures below), so the tests pass in any order and alone.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';

const A = 'social-a.test';
const B = 'social-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;

/** bob's Following circle on B. */
async function bobsFollowing(): Promise<string> {
  const res = await client(b.url).get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  if (res.status !== 200) throw new Error(`/auth/me on B: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user.following;
}

async function bobsTimeline(): Promise<Array<Record<string, unknown>>> {
  const following = await bobsFollowing();
  const res = await client(b.url).get<{ orderedItems: Array<Record<string, unknown>> }>(
    `/circles/${following}/posts`,
    { token: bob.token },
  );
  if (res.status !== 200) throw new Error(`bob's timeline on B: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems;
}

/**
 * bob (on B) follows alice (on A), and A has recorded it: the Follow travelled and was processed.
 * A fresh Idempotency-Key each time, so a repeat within 30 s is not refused by the gateway.
 */
async function bobFollowsAlice(): Promise<void> {
  const res = await client(b.url).post(
    '/outbox',
    { type: 'Follow', target: alice.id },
    {
      token: bob.token,
      headers: { 'idempotency-key': randomUUID() },
    },
  );
  if (res.status !== 201) throw new Error(`Follow on B: ${res.status} ${JSON.stringify(res.body)}`);
  await waitFor(async () => (await followersOfAlice()).includes(`${bob.id} http://${B}/inbox`), 20_000);
}

/** A public post of alice's on A, once it is in bob's timeline on B. */
async function postReachingBob(content: string): Promise<string> {
  const res = await outbox(client(a.url), alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content },
  });
  if (res.status !== 201) throw new Error(`post on A: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.createdId!;
  await waitFor(async () => (await bobsTimeline()).some((p) => p.id === id), 20_000);
  return id;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A server whose ids and links use its own domain over http, and that reaches `peer` by name. */
function boot(domain: string, port: number, peer: string, peerPort: number) {
  return bootServer({
    DOMAIN: domain,
    PUBLIC_URL: `http://${domain}`,
    PORT: String(port),
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: `${peer}=127.0.0.1:${peerPort}`,
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
}

async function followersOfAlice(): Promise<string[]> {
  const rows = await a.services[0]!.runtime!.repos.followers.ofUser(alice.id);
  return rows.map((r) => `${r.actorId} ${r.inbox}`);
}

beforeAll(async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  [a, b] = await Promise.all([boot(A, portA, B, portB), boot(B, portB, A, portA)]);
  alice = await registerActor(client(a.url), 'alice');
  bob = await registerActor(client(b.url), 'bob');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test("alice's public post on A reaches bob's timeline on B", async () => {
  // bob follows alice: on B, alice joins his Following circle, and B sends the Follow to A, which
  // records bob as her remote follower (recorded state, so no posting until something arrives).
  await bobFollowsAlice();
  const postId = await postReachingBob(`Hello from A, **bob** (${randomUUID()})`);
  const item = (await bobsTimeline()).find((p) => p.id === postId)!;
  expect(item).toMatchObject({ originDomain: A, actorId: alice.id, visibility: 'Public' });
  expect(String(item.body)).toContain('<strong>bob</strong>');
});

test("alice's edit and then her delete reach bob's timeline on B", async () => {
  await bobFollowsAlice();
  const postId = await postReachingBob(`soon edited ${randomUUID()}`);
  const apiA = client(a.url);
  const edited = await outbox(apiA, alice, {
    type: 'Update',
    target: postId,
    object: { content: 'Edited on A' },
  });
  expect(edited.status).toBe(201);
  await waitFor(
    async () => String((await bobsTimeline()).find((p) => p.id === postId)?.body).includes('Edited on A'),
    20_000,
  );
  expect((await outbox(apiA, alice, { type: 'Delete', target: postId })).status).toBe(201);
  await waitFor(async () => !(await bobsTimeline()).some((p) => p.id === postId), 20_000);
});

test("bob's Unfollow on B removes him from alice's followers on A", async () => {
  await bobFollowsAlice();
  expect(await followersOfAlice()).toEqual([`${bob.id} http://${B}/inbox`]);
  expect((await outbox(client(b.url), bob, { type: 'Unfollow', object: alice.id })).status).toBe(201);
  await waitFor(async () => (await followersOfAlice()).length === 0, 20_000);
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
