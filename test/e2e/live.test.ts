/**
 * Live updates (issue 26, ADR 0020) through the gateway: GET /notifications/stream needs a
 * token, is limited per user, beats while idle, and tells a user only about what they may read
 * (a circle post reaches the circle's members, not a follower outside the circle).
 */
import { randomUUID } from 'node:crypto';
import { registerActor, outbox, type Actor } from '../harness/actors';
import { openStream, type SseStream } from '../harness/sse';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, dave: Actor;
const open: SseStream[] = [];

async function stream(who?: Actor): Promise<SseStream> {
  const s = await openStream(server.url, who?.token);
  open.push(s);
  return s;
}

async function send(who: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(api, who, activity);
  if (res.status !== 201)
    throw new Error(`outbox ${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
}

const followingOf = async (who: Actor) =>
  (await api.get<{ user: { following: string } }>('/auth/me', { token: who.token })).body.user.following;

beforeAll(async () => {
  server = await bootServer({ LIVE_STREAMS_PER_USER: '2', LIVE_HEARTBEAT_SECONDS: '1' });
  api = client(server.url);
  [alice, bob, dave] = (await Promise.all(['alice', 'bob', 'dave'].map((n) => registerActor(api, n)))) as [
    Actor,
    Actor,
    Actor,
  ];
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await server?.close();
});

test('without a token: 401 { error }, no stream', async () => {
  const s = await stream();
  expect(s.status).toBe(401);
  expect(s.refusal?.error).toEqual(expect.any(String));
});

test('a stream opens with ready, is not compressed or cached, and beats while idle', async () => {
  const s = await stream(alice);
  expect(s.status).toBe(200);
  expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(s.headers.get('content-encoding')).toBeNull();
  expect(s.headers.get('cache-control')).toContain('no-store');
  await s.next((e) => e.event === 'ready', 5000, 'ready');
  await waitFor(() => Promise.resolve(s.comments >= 2), 5000);
});

test('one stream more than LIVE_STREAMS_PER_USER is 429 { error }; closing one frees its place', async () => {
  const [a, b] = [await stream(bob), await stream(bob)];
  expect([a.status, b.status]).toEqual([200, 200]);
  const third = await stream(bob);
  expect(third.status).toBe(429);
  expect(third.refusal?.error).toMatch(/at most 2/i);
  // Another user is not counted against bob.
  expect((await stream(dave)).status).toBe(200);
  a.close();
  await waitFor(async () => {
    const again = await stream(bob);
    return again.status === 200;
  }, 5000);
});

test('a circle post reaches a member of the circle, not a follower outside it; a public one reaches both', async () => {
  await send(bob, { type: 'Add', target: await followingOf(bob), object: alice.id });
  await send(dave, { type: 'Add', target: await followingOf(dave), object: alice.id });
  const friends = await send(alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: `Friends ${randomUUID().slice(0, 8)}` },
  });
  await send(alice, { type: 'Add', target: friends, object: dave.id });
  const [bobs, daves] = [await stream(bob), await stream(dave)];
  await bobs.next((e) => e.event === 'ready');
  await daves.next((e) => e.event === 'ready');

  const secret = await send(alice, {
    type: 'Create',
    objectType: 'Post',
    to: friends,
    object: { content: 'friends only' },
  });
  const daveFollowing = await followingOf(dave);
  expect((await daves.next((e) => e.data.postId === secret, 10_000, 'the circle post at dave')).data).toEqual(
    {
      circleId: daveFollowing,
      postId: secret,
    },
  );
  const open_ = await send(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'hello all' },
  });
  await bobs.next((e) => e.data.postId === open_, 10_000, 'the public post at bob');
  // Both hints for bob would travel the same socket in order: the circle post never came.
  expect(bobs.events.filter((e) => e.event === 'post').map((e) => e.data)).toEqual([
    { circleId: await followingOf(bob), postId: open_ },
  ]);
  // What a hint names is read through the ordinary route, which checks the audience again.
  expect((await api.get(`/posts/${secret}`, { token: bob.token })).status).toBe(404);

  // A reply in the public thread reaches both; bob's reply notifies alice, whose stream says so.
  const alices = await stream(alice);
  await alices.next((e) => e.event === 'ready');
  const replyId = await send(bob, { type: 'Reply', to: open_, object: { content: 'hi alice' } });
  await daves.next((e) => e.event === 'reply' && e.data.replyId === replyId, 10_000, 'the reply at dave');
  expect((await alices.next((e) => e.event === 'reply', 10_000, 'the reply at alice')).data).toEqual({
    postId: open_,
    replyId,
  });
  await alices.next((e) => e.event === 'notification' && e.data.type === 'reply', 10_000, 'the notification');
  // A reply in the circle's thread: dave hears of it, bob (outside the circle) does not.
  const inner = await send(alice, { type: 'Reply', to: secret, object: { content: 'just us' } });
  await daves.next((e) => e.data.replyId === inner, 10_000, 'the circle reply at dave');
  const marker = await send(alice, { type: 'Reply', to: open_, object: { content: 'marker' } });
  await bobs.next((e) => e.data.replyId === marker, 10_000, 'the marker reply at bob');
  expect(bobs.events.some((e) => e.data.replyId === inner)).toBe(false);
});

test("the posts and replies of someone a user muted are not announced to that user's streams", async () => {
  const carol = await registerActor(api, `carol${randomUUID().slice(0, 6)}`);
  const me = (
    await api.get<{ user: { following: string; muted: string } }>('/auth/me', { token: carol.token })
  ).body.user;
  await send(carol, { type: 'Add', target: me.following, object: alice.id });
  await send(carol, { type: 'Add', target: me.following, object: dave.id });
  await send(carol, { type: 'Add', target: me.muted, object: alice.id });
  const carols = await stream(carol);
  await carols.next((e) => e.event === 'ready');

  const muted = await send(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'm' },
  });
  const thread = await send(dave, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 't' },
  });
  await carols.next((e) => e.data.postId === thread, 10_000, "dave's post at carol");
  const mutedReply = await send(alice, { type: 'Reply', to: thread, object: { content: 'muted reply' } });
  const marker = await send(dave, { type: 'Reply', to: thread, object: { content: 'marker' } });
  await carols.next((e) => e.data.replyId === marker, 10_000, "dave's reply at carol");
  // Hints for one stream travel its socket in order: alice's came before the markers, or never.
  expect(carols.events.some((e) => e.data.postId === muted)).toBe(false);
  expect(carols.events.some((e) => e.data.replyId === mutedReply)).toBe(false);
});
