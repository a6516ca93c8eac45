/**
 * A suspension between two servers of this software (ADR 0028, docs/federation.md "Suspended
 * accounts"): bob on B follows alice on A and holds a copy of her public post. A's admin
 * soft-deletes alice: B receives an Update of alice marked `suspended` (recorded in its activity
 * log) and no Delete, so its copy stays for the restore; the restore's Update arrives without the
 * flag. The absence of the Delete is proven on recorded state: the Update that followed it in
 * order was processed, and the copy is not deleted.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN, client, waitFor, type TestServer } from '../harness/standalone';
import { activityLog, bootPair, read, repos, send } from '../harness/two-servers';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { createSocialContext } from '../../services/social/src/context';
import { updateActor } from '../../services/social/src/inbound/actors';

const A = 'susp-a.test';
const B = 'susp-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;
let adminA: string;
const enc = encodeURIComponent;

/** The actor activities B recorded from alice: type, and `suspended` of their object. */
async function fromAlice(): Promise<Array<{ type: string; suspended: unknown; status?: string }>> {
  return (
    (await activityLog(b))
      .filter((r) => r.inbound && r.actorId === alice.id && ['Update', 'Delete'].includes(String(r.type)))
      // In the order they arrived (the log is stored by id).
      .sort((x, y) => new Date(x.createdAt ?? 0).getTime() - new Date(y.createdAt ?? 0).getTime())
      .map((r) => {
        const raw = JSON.parse(String(r.raw)) as { object?: unknown };
        const object = typeof raw.object === 'object' && raw.object !== null ? raw.object : {};
        return {
          type: String(r.type),
          suspended: (object as { suspended?: unknown }).suspended ?? null,
          ...(r.inbound?.status ? { status: r.inbound.status } : {}),
        };
      })
  );
}

beforeAll(async () => {
  [a, b] = await bootPair(A, B);
  alice = await registerActor(client(a.url), 'alice');
  bob = await registerActor(client(b.url), 'bob');
  adminA = (await client(a.url).post<{ token: string }>('/auth/login', ADMIN)).body.token;
  expect((await outbox(client(b.url), bob, { type: 'Follow', object: alice.id })).status).toBe(201);
  await waitFor(() => repos(a).followers.isFollower(alice.id, bob.id), 20_000);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test('a suspension reaches the other server as an Update marked suspended; its copies stay for the restore', async () => {
  const res = await outbox(client(a.url), alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: `from A ${randomUUID()}` },
  });
  expect(res.status).toBe(201);
  const postId = res.body.createdId!;
  await waitFor(async () => !!(await repos(b).posts.byId(postId)), 20_000);

  expect(
    (await client(a.url).call('DELETE', `/admin/users/${enc(alice.id)}`, { token: adminA })).status,
  ).toBe(200);
  await waitFor(async () => (await fromAlice()).some((x) => x.status === 'processed'), 20_000);
  expect(await fromAlice()).toEqual([{ type: 'Update', suspended: true, status: 'processed' }]);
  expect((await repos(b).posts.byId(postId))?.deletedAt ?? null).toBeNull();

  expect(
    (await client(a.url).call('POST', `/admin/users/${enc(alice.id)}/restore`, { token: adminA })).status,
  ).toBe(200);
  await waitFor(async () => (await fromAlice()).filter((x) => x.status === 'processed').length === 2, 20_000);
  expect((await fromAlice()).map((x) => [x.type, x.suspended])).toEqual([
    ['Update', true],
    ['Update', null],
  ]);
  // Never a Delete, and the copy is as it was: bob reads it on B.
  expect((await repos(b).posts.byId(postId))?.deletedAt ?? null).toBeNull();
  expect((await client(b.url).get(`/posts/${enc(postId)}`, { token: bob.token })).status).toBe(200);
});

/** What bob reads on B of alice, as one snapshot (statuses and bodies). */
async function whatBobReads(ids: { post: string; bobPost: string; reply: string }, following: string) {
  const api = client(b.url);
  const as = { token: bob.token };
  const post = await read(b, bob, ids.post);
  const reply = await read(b, bob, ids.reply);
  const thread = await api.get<{ totalItems: number; orderedItems: Array<{ id: string }> }>(
    `/posts/${enc(ids.bobPost)}/replies`,
    as,
  );
  const root = await read(b, bob, ids.bobPost);
  const timeline = await api.get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${enc(following)}/posts`,
    as,
  );
  const profile = await api.get(`/users/${enc(alice.id)}?mode=remote`, as);
  return {
    post: { status: post.status, body: post.status === 200 ? { id: post.body.id } : post.body },
    reply: reply.status,
    thread: { total: thread.body.totalItems, ids: thread.body.orderedItems.map((r) => r.id) },
    replyCount: root.body.replyCount,
    timeline: timeline.body.orderedItems.map((p) => p.id).filter((id) => id === ids.post),
    profile: profile.status,
  };
}

test("the receiving server hides a suspended actor's copies (posts, replies, profile) from everyone until the restore's Update", async () => {
  const following = (
    await client(b.url).get<{ user: { following: string } }>('/auth/me', { token: bob.token })
  ).body.user.following;
  const post = (
    await send(a, alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: `hidden on B ${randomUUID()}` },
    })
  ).createdId!;
  // alice follows bob, so his post reaches A and she can reply to it there.
  await send(a, alice, { type: 'Follow', object: bob.id });
  await waitFor(() => repos(b).followers.isFollower(bob.id, alice.id), 20_000);
  const bobPost = (
    await send(b, bob, { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'ask A' } })
  ).createdId!;
  await waitFor(async () => (await read(a, alice, bobPost)).status === 200, 20_000);
  const reply = (await send(a, alice, { type: 'Reply', to: bobPost, object: { content: 'answer from A' } }))
    .createdId!;
  await waitFor(
    async () => (await read(b, bob, post)).status === 200 && (await read(b, bob, reply)).status === 200,
    20_000,
  );
  const ids = { post, bobPost, reply };
  const before = await whatBobReads(ids, following);
  expect(before).toMatchObject({
    post: { status: 200 },
    reply: 200,
    replyCount: 1,
    timeline: [post],
    profile: 200,
  });
  expect(before.thread).toEqual({ total: 1, ids: [reply] });
  const processed = async () => (await fromAlice()).filter((x) => x.status === 'processed').length;
  const seen = await processed();

  expect(
    (await client(a.url).call('DELETE', `/admin/users/${enc(alice.id)}`, { token: adminA })).status,
  ).toBe(200);
  await waitFor(async () => (await processed()) > seen, 20_000);
  expect(await whatBobReads(ids, following)).toEqual({
    post: { status: 404, body: { error: 'Post not found' } },
    reply: 404,
    thread: { total: 0, ids: [] },
    replyCount: 0,
    timeline: [],
    profile: 404,
  });
  // Anonymous readers on B see none of it either; the copies are kept, not deleted.
  expect((await read(b, undefined, post)).status).toBe(404);
  expect((await repos(b).posts.byId(post))?.deletedAt ?? null).toBeNull();

  expect(
    (await client(a.url).call('POST', `/admin/users/${enc(alice.id)}/restore`, { token: adminA })).status,
  ).toBe(200);
  await waitFor(async () => (await processed()) > seen + 1, 20_000);
  expect(await whatBobReads(ids, following)).toEqual(before);
});

test('an Update marking suspended an actor this server holds nothing of is not recorded: a peer cannot grow the set', async () => {
  const ctx = createSocialContext(b.services.find((s) => s.name === 'social')!.runtime!);
  const stranger = `@stranger_${randomUUID().slice(0, 8)}@${A}`;
  const update = (suspended: boolean) =>
    updateActor(
      ctx,
      { type: 'Update', actorId: stranger, signerDomain: A, activity: {} },
      { id: stranger, type: 'Person', name: 'Stranger', ...(suspended ? { suspended: true } : {}) },
    );
  expect(await update(true)).toEqual({ status: 'processed' });
  expect(await repos(b).remoteSuspensions.has(stranger)).toBe(false);
  // alice, whom B holds (bob follows her), is recorded by the same call (a check that the call itself records).
  const known = await updateActor(
    ctx,
    { type: 'Update', actorId: alice.id, signerDomain: A, activity: {} },
    { id: alice.id, type: 'Person', suspended: true },
  );
  expect(known).toEqual({ status: 'processed' });
  expect(await repos(b).remoteSuspensions.has(alice.id)).toBe(true);
  expect(await update(false)).toEqual({ status: 'processed' });
  await updateActor(
    ctx,
    { type: 'Update', actorId: alice.id, signerDomain: A, activity: {} },
    { id: alice.id, type: 'Person' },
  );
  expect(await repos(b).remoteSuspensions.has(alice.id)).toBe(false);
});
