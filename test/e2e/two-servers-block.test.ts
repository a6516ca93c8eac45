/**
 * An admin's domain block, end to end between two real servers (issue 23, item 3;
 * docs/federation.md, "Blocking a domain"). bob on B follows alice on A, so her public posts
 * reach B. B's admin blocks A: the copy B holds of her post is hidden from every read; A's next
 * delivery is refused at B's door (403, counted) and B stores nothing of it; B's own deliveries
 * to A are dropped and recorded; A's signed pull and signed reads are refused; B's lookups to A
 * are refused; B's poller does not pull from A; the block is in B's audit log. Unblocking
 * restores the hidden copy and federation resumes.
 */
import { randomUUID } from 'node:crypto';
import { signAsServer } from '@agora/common/federation';
import { pollOnce } from '../../services/federation/src/poll/worker';
import { ADMIN, client, waitFor, type TestServer } from '../harness/standalone';
import { bootPair, fed, repos } from '../harness/two-servers';
import { outbox, registerActor, type Actor } from '../harness/actors';

const A = 'block-a.test';
const B = 'block-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;
let carol: Actor;
let adminB: string;

const reposOf = repos;
const fedOf = fed;

async function bobsTimeline(): Promise<string[]> {
  const me = await client(b.url).get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  if (me.status !== 200) throw new Error(`/auth/me on B: ${me.status}`);
  const res = await client(b.url).get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${me.body.user.following}/posts`,
    { token: bob.token },
  );
  if (res.status !== 200) throw new Error(`bob's timeline: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
}

async function alicePosts(content: string): Promise<string> {
  const res = await outbox(client(a.url), alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content },
  });
  if (res.status !== 201) throw new Error(`post on A: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
}

async function block(blocked: boolean) {
  const res = await client(b.url).call<{ server: Record<string, unknown>; changed: boolean }>(
    'PATCH',
    `/admin/servers/${A}`,
    { token: adminB, body: { blocked, ...(blocked ? { reason: 'spam wave' } : {}) } },
  );
  if (res.status !== 200) throw new Error(`PATCH /admin/servers: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  [a, b] = await bootPair(A, B);
  alice = await registerActor(client(a.url), 'alice');
  carol = await registerActor(client(a.url), 'carol');
  bob = await registerActor(client(b.url), 'bob');
  const login = await client(b.url).post<{ token: string }>('/auth/login', ADMIN);
  adminB = login.body.token;
  const res = await outbox(client(b.url), bob, { type: 'Follow', object: alice.id });
  expect(res.status).toBe(201);
  await waitFor(() => reposOf(a).followers.isFollower(alice.id, bob.id), 20_000);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test('blocking a domain hides it, refuses it both ways, and unblocking restores it', async () => {
  const before = await alicePosts(`before the block ${randomUUID()}`);
  await waitFor(async () => (await bobsTimeline()).includes(before), 20_000);

  const blocked = await block(true);
  expect(blocked).toMatchObject({
    changed: true,
    server: { domain: A, blocked: true, blockReason: 'spam wave' },
  });
  // The copy B holds is hidden from every read.
  expect(await bobsTimeline()).not.toContain(before);
  expect((await client(b.url).get(`/posts/${encodeURIComponent(before)}`, { token: bob.token })).status).toBe(
    404,
  );
  // B's lookups to A are refused.
  const lookup = await client(b.url).get(`/users/${encodeURIComponent(alice.id)}?mode=remote`, {
    token: bob.token,
  });
  expect(lookup.status).toBe(403);

  // A → B: refused at B's door; A records the delivery dead; B stored nothing of it.
  const during = await alicePosts(`during the block ${randomUUID()}`);
  await waitFor(
    async () => (await reposOf(a).parkedDeliveries.deadOf(B, 50)).some((d) => d.objectKey === during),
    20_000,
  );
  const dead = (await reposOf(a).parkedDeliveries.deadOf(B, 50)).find((d) => d.objectKey === during);
  expect(dead?.lastError).toBe('refused for good: http_403');
  expect(await reposOf(b).posts.byId(during)).toBeNull();
  expect((await reposOf(b).remoteServers.byDomain(A))?.refusedInbound).toBeGreaterThanOrEqual(1);

  // B → A: bob's follow of carol is dropped on B (recorded dead), so A never hears of it.
  expect((await outbox(client(b.url), bob, { type: 'Follow', object: carol.id })).status).toBe(201);
  await waitFor(
    async () =>
      (await reposOf(b).parkedDeliveries.deadOf(A, 50)).some(
        (d) => d.objectKey === carol.id && d.lastError === 'dropped: the domain is blocked',
      ),
    20_000,
  );
  expect(await reposOf(a).followers.isFollower(carol.id, bob.id)).toBe(false);

  // A's signed pull from B and its signed reads are refused.
  const pullUrl = `${b.url}/outbox?from=${encodeURIComponent(bob.id)}`;
  const signed = await signAsServer(fedOf(a), { method: 'GET', url: pullUrl });
  const pull = await fetch(pullUrl, { headers: { ...signed, accept: 'application/json' } });
  expect(pull.status).toBe(403);

  // B does not pull from A: bob's Following holds alice and A is due, yet the poll claims nothing.
  await reposOf(b).remoteServers.pollFailed(A, 0, 'due', new Date(0));
  const due = (await reposOf(b).remoteServers.byDomain(A))?.nextPollAt ?? null;
  await pollOnce(fedOf(b));
  expect((await reposOf(b).remoteServers.byDomain(A))?.nextPollAt ?? null).toEqual(due);

  // The block is in B's audit log.
  const log = await client(b.url).get<{ orderedItems: Array<Record<string, unknown>> }>(
    '/admin/activities?type=Block',
    { token: adminB },
  );
  expect(log.body.orderedItems).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ type: 'Block', objectId: `@${A}`, objectType: 'Server' }),
    ]),
  );

  // Unblocked: the hidden copy is back, lookups work, and bob's new follow goes through again.
  expect(await block(false)).toMatchObject({ changed: true, server: { blocked: false } });
  expect(await bobsTimeline()).toContain(before);
  expect(
    (await client(b.url).get(`/users/${encodeURIComponent(alice.id)}?mode=remote`, { token: bob.token }))
      .status,
  ).toBe(200);
  const again = await alicePosts(`after the block ${randomUUID()}`);
  await waitFor(async () => (await reposOf(b).posts.byId(again)) !== null, 20_000);
}, 120_000);

test('blocking needs an admin and a domain; this server cannot block itself', async () => {
  const api = client(b.url);
  expect(
    (await api.call('PATCH', `/admin/servers/${A}`, { token: bob.token, body: { blocked: true } })).status,
  ).toBe(403);
  expect(
    (await api.call('PATCH', '/admin/servers/not_a domain', { token: adminB, body: { blocked: true } }))
      .status,
  ).toBe(400);
  expect(
    (await api.call('PATCH', `/admin/servers/${B}`, { token: adminB, body: { blocked: true } })).status,
  ).toBe(400);
  expect(
    (await api.call('PATCH', `/admin/servers/${A}`, { token: adminB, body: { blocked: 'yes' } })).status,
  ).toBe(400);
  expect((await reposOf(b).remoteServers.byDomain(A))?.blocked).toBe(false);
});
