/**
 * The interactions story of the social issue, part 1: alice posts to a circle with bob in it;
 * bob replies and reacts; carol, outside the circle, cannot; then React replace/clear, Update
 * and Delete with their validation and authorisation. (Flag, Block/Mute, Follow and Undo are in
 * interactions-relations.test.ts.) The users and alice's circle are shared; every test makes its
 * own post and thread (fixtures below) and asserts counters as changes, so the tests pass in any
 * order and alone.
 */
import { bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';

type Body = {
  ok?: boolean;
  createdId?: string;
  result?: Record<string, unknown>;
  activity?: Record<string, unknown>;
  error?: string;
};
type Post = Record<string, unknown> & {
  id: string;
  replyCount: number;
  reactCount: number;
  reactSummary: Record<string, number>;
  myReact?: string | null;
};
type Collection = { totalItems: number; orderedItems: Array<Record<string, unknown> & { id: string }> };

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;
let circleId: string;
let seq = 0;

/** POST /outbox with a fresh Idempotency-Key, so repeated bodies reach the handler (spec 1.6 de-dup). */
const send = (who: Actor, activity: unknown) =>
  api.post<Body>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': `interactions-${++seq}` },
  });
/** `send` for fixture steps: anything but 201 fails the test here. */
const must = async (who: Actor, activity: Record<string, unknown>) => {
  const res = await send(who, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const getPost = (id: string, who: Actor) => api.get<Post>(`/posts/${id}`, { token: who.token });
const userCounts = async (who: Actor) => (await server.services[0]!.runtime!.repos.users.findById(who.id))!;
const followingOf = async (who: Actor) => {
  const res = await api.get<{ user: { following: string; blocked: string } }>('/auth/me', {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`/auth/me: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user;
};
const timeline = async (who: Actor, circle: string) => {
  const res = await api.get<Collection>(`/circles/${circle}/posts`, { token: who.token });
  if (res.status !== 200) throw new Error(`timeline ${circle}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
};
/** `who` follows `whom` through their Following circle (adding twice keeps one membership). */
const follow = async (who: Actor, whom: Actor) => {
  const following = (await followingOf(who)).following;
  await must(who, { type: 'Add', target: following, object: whom.id });
  return following;
};

/** A new post of alice's to the shared circle (bob is in it, carol is not). */
const circlePost = async (content = 'Hello friends') =>
  (
    await must(alice, {
      type: 'Create',
      objectType: 'Post',
      to: circleId,
      object: { content: `${content} ${++seq}` },
    })
  ).createdId!;
/** A new circle post with one reply of bob's. */
const thread = async () => {
  const postId = await circlePost();
  const replyId = (await must(bob, { type: 'Reply', to: postId, object: { content: `Nice *one* ${++seq}` } }))
    .createdId!;
  return { postId, replyId };
};

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob, carol] = (await Promise.all(['alice', 'bob', 'carol'].map((n) => registerActor(api, n)))) as [
    Actor,
    Actor,
    Actor,
  ];
  circleId = (
    await must(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Friends', members: [bob.id] },
    })
  ).createdId!;
});
afterAll(async () => {
  await server?.close();
});

describe('Reply and React on a circle post', () => {
  test('bob replies and reacts; GET /posts/:id shows replyCount 1 and reactCount 1', async () => {
    const postId = await circlePost();
    const before = await userCounts(bob);
    const reply = await send(bob, {
      type: 'Reply',
      objectType: 'Reply',
      to: postId,
      object: { type: 'Reply', source: { content: 'Nice *one*' } },
    });
    expect(reply.status).toBe(201);
    const replyId = reply.body.createdId!;
    expect(replyId).toMatch(/^reply:[0-9a-f]{24}@social\.test$/);
    expect(reply.body.result).toMatchObject({ id: replyId, actorId: bob.id, target: postId, parent: postId });
    expect(reply.body.result!.body).toContain('<em>one</em>');
    expect(String(reply.body.result!.url)).toMatch(new RegExp(`/posts/${replyId}$`));

    const react = await send(bob, {
      type: 'React',
      objectType: 'React',
      to: postId,
      object: { type: 'React', emoji: '👍', name: 'Like' },
    });
    expect(react.status).toBe(201);
    expect(react.body.result).toMatchObject({
      status: 'reacted',
      emoji: '👍',
      name: 'Like',
      target: postId,
      actorId: bob.id,
      targetReactCount: 1,
    });

    const post = await getPost(postId, alice);
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ replyCount: 1, reactCount: 1, reactSummary: { '👍': 1 } });
    expect((await getPost(postId, bob)).body.myReact).toBe('👍');
    expect(await userCounts(bob)).toMatchObject({
      replyCount: before.replyCount + 1,
      reactCount: before.reactCount + 1,
    });
  });

  test('the replies and reacts lists of the post show them', async () => {
    const { postId, replyId } = await thread();
    await must(bob, { type: 'React', to: postId, object: { emoji: '👍' } });
    const replies = await api.get<Collection>(`/posts/${postId}/replies`, { token: bob.token });
    expect(replies.status).toBe(200);
    expect(replies.body.orderedItems.map((r) => r.id)).toEqual([replyId]);
    const reacts = await api.get<Collection>(`/posts/${postId}/reacts`, { token: alice.token });
    expect(reacts.body.totalItems).toBe(1);
    expect(reacts.body.orderedItems[0]).toMatchObject({ actorId: bob.id, emoji: '👍' });
  });

  test('the same reply text within five minutes returns the first reply', async () => {
    const postId = await circlePost();
    const first = await must(bob, { type: 'Reply', to: postId, object: { content: 'Say it *twice*' } });
    const again = await send(bob, { type: 'Reply', to: postId, object: { content: 'Say it *twice*' } });
    expect(again.status).toBe(201);
    expect(again.body.createdId).toBe(first.createdId);
    expect((await getPost(postId, alice)).body.replyCount).toBe(1);
  });

  test('carol, outside the circle, finds no such post (404) and the counts do not move', async () => {
    const { postId, replyId } = await thread();
    await must(bob, { type: 'React', to: postId, object: { emoji: '👍' } });
    const reply = await send(carol, { type: 'Reply', to: postId, object: { content: 'let me in' } });
    expect(reply.status).toBe(404);
    const react = await send(carol, { type: 'React', to: postId, object: { emoji: '👎' } });
    expect(react.status).toBe(404);
    expect((await getPost(postId, alice)).body).toMatchObject({ replyCount: 1, reactCount: 1 });
    // Nor may she reply inside the thread through bob's reply.
    expect((await send(carol, { type: 'Reply', to: replyId, object: { content: 'side door' } })).status).toBe(
      404,
    );
  });

  test('unknown targets are 404; targets of the wrong kind and missing content are 400', async () => {
    const postId = await circlePost();
    const missing = 'post:000000000000000000000000@social.test';
    expect((await send(bob, { type: 'Reply', to: missing, object: { content: 'hello?' } })).status).toBe(404);
    expect((await send(bob, { type: 'React', to: missing, object: { emoji: '👍' } })).status).toBe(404);
    const toUser = await send(bob, { type: 'Reply', to: alice.id, object: { content: 'hi' } });
    expect(toUser.status).toBe(400);
    expect(toUser.body.error).toMatch(/^to: /);
    const empty = await send(bob, { type: 'Reply', to: postId, object: { content: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/^object/);
    const long = await send(bob, { type: 'React', to: postId, object: { emoji: 'x'.repeat(33) } });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/^object\.emoji: /);
  });

  test('a post whose canReply is alice herself refuses bob (403) but not alice', async () => {
    const post = await send(alice, {
      type: 'Create',
      objectType: 'Post',
      to: circleId,
      canReply: alice.id,
      object: { content: 'Replies off' },
    });
    const id = post.body.createdId!;
    expect((await send(bob, { type: 'Reply', to: id, object: { content: 'can I?' } })).status).toBe(403);
    // canReact inherits the circle audience, so bob may still react.
    expect((await send(bob, { type: 'React', to: id, object: { emoji: '🙂' } })).status).toBe(201);
    expect((await send(alice, { type: 'Reply', to: id, object: { content: 'I can' } })).status).toBe(201);
    expect((await getPost(id, alice)).body).toMatchObject({ replyCount: 1, reactCount: 1, canReply: true });
    expect((await getPost(id, bob)).body.canReply).toBe(false);
  });

  test('threads are two levels deep: a reply to a second-level reply joins its first-level parent', async () => {
    const { postId, replyId } = await thread();
    const second = await send(alice, { type: 'Reply', to: replyId, object: { content: 'Thanks bob' } });
    expect(second.status).toBe(201);
    expect(second.body.result).toMatchObject({ target: postId, parent: replyId });
    const third = await send(bob, {
      type: 'Reply',
      to: second.body.createdId,
      object: { content: 'Any time' },
    });
    expect(third.body.result).toMatchObject({ target: postId, parent: replyId });
    expect((await getPost(postId, alice)).body.replyCount).toBe(3);
    expect((await getPost(replyId, bob)).body.replyCount).toBe(2);
    const replies = await api.get<Collection>(`/posts/${postId}/replies`, { token: bob.token });
    expect(replies.body.totalItems).toBe(3);
  });

  test('React replaces and clears; the counts follow the reacts collection', async () => {
    const postId = await circlePost();
    const base = (await userCounts(bob)).reactCount;
    await must(bob, { type: 'React', to: postId, object: { emoji: '👍', name: 'Like' } });
    const replaced = await send(bob, { type: 'React', to: postId, object: { emoji: '❤️', name: 'Love' } });
    expect(replaced.body.result).toMatchObject({ status: 'replaced', emoji: '❤️', targetReactCount: 1 });
    expect(
      (await send(bob, { type: 'React', to: postId, object: { emoji: '❤️', name: 'Love' } })).body.result,
    ).toMatchObject({ status: 'already_reacted' });
    expect(
      (await send(alice, { type: 'React', to: postId, object: { react: '👍' } })).body.result,
    ).toMatchObject({ status: 'reacted' });
    let post = (await getPost(postId, bob)).body;
    expect(post).toMatchObject({ reactCount: 2, reactSummary: { '❤️': 1, '👍': 1 }, myReact: '❤️' });
    expect((await userCounts(bob)).reactCount).toBe(base + 1);

    const cleared = await send(bob, { type: 'React', to: postId, object: {} });
    expect(cleared.status).toBe(201);
    expect(cleared.body.result).toMatchObject({ status: 'unreacted', targetReactCount: 1 });
    post = (await getPost(postId, bob)).body;
    expect(post).toMatchObject({ reactCount: 1, myReact: null });
    expect(post.reactSummary).toEqual({ '👍': 1 });
    expect((await send(bob, { type: 'React', to: postId, object: { emoji: '' } })).body.result).toMatchObject(
      { status: 'no_change' },
    );
    // bob's given-reactions counter is back where it was.
    expect((await userCounts(bob)).reactCount).toBe(base);
  });
});

describe('Update', () => {
  test('the author edits a post: markdown is re-rendered; a client body is ignored', async () => {
    const { postId } = await thread();
    const res = await send(alice, {
      type: 'Update',
      target: postId,
      object: {
        content: 'Hello **again**',
        body: '<script>alert(1)</script>',
        title: 'Greeting',
        replyCount: 99,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({
      id: postId,
      title: 'Greeting',
      source: { content: 'Hello **again**' },
      replyCount: 1,
    });
    expect(res.body.result!.body).toContain('<strong>again</strong>');
    expect(String(res.body.result!.body)).not.toContain('script');
    const seen = (await getPost(postId, bob)).body;
    expect(seen.title).toBe('Greeting');
    expect(seen.body).toContain('<strong>again</strong>');
  });

  test("bob cannot update alice's post (403); invalid patches are 400 naming the field", async () => {
    const postId = await circlePost();
    expect(
      (await send(bob, { type: 'Update', target: postId, object: { content: 'hijacked' } })).status,
    ).toBe(403);
    const badType = await send(alice, { type: 'Update', target: postId, object: { type: 'Bogus' } });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/^object\.type: /);
    const badTo = await send(alice, { type: 'Update', target: postId, object: { to: 'everyone' } });
    expect(badTo.status).toBe(400);
    expect(badTo.body.error).toMatch(/object\.to/);
    const nothing = await send(alice, { type: 'Update', target: postId, object: { colour: 'red' } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toMatch(/^object: /);
    expect((await send(alice, { type: 'Update', object: { title: 'x' } })).body.error).toMatch(/^target: /);
    expect(
      (
        await send(alice, {
          type: 'Update',
          target: 'post:000000000000000000000000@social.test',
          object: { title: 'x' },
        })
      ).status,
    ).toBe(404);
    // Only audiences the author may use: carol cannot move her post into alice's circle.
    const carolPost = await send(carol, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'carol speaks' },
    });
    expect(
      (await send(carol, { type: 'Update', target: carolPost.body.createdId, object: { to: circleId } }))
        .status,
    ).toBe(404);
  });

  test('changing `to` retags the timeline rows: a follower outside the new audience loses the post', async () => {
    const bobFollowing = await follow(bob, alice);
    const carolFollowing = await follow(carol, alice);
    const pub = await send(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Public at first' },
    });
    const id = pub.body.createdId!;
    expect(await timeline(carol, carolFollowing)).toContain(id);
    const moved = await send(alice, { type: 'Update', target: id, object: { to: circleId } });
    expect(moved.status).toBe(201);
    expect(moved.body.result).toMatchObject({ to: circleId });
    expect(await timeline(carol, carolFollowing)).not.toContain(id);
    expect(await timeline(bob, bobFollowing)).toContain(id);
    expect((await getPost(id, carol)).status).toBe(404);
  });

  test('replies, reactions and circles are updated by their owners', async () => {
    const { replyId } = await thread();
    const reply = await send(bob, { type: 'Update', target: replyId, object: { content: 'Nice _two_' } });
    expect(reply.body.result!.body).toContain('<em>two</em>');
    expect(
      (await send(alice, { type: 'Update', target: replyId, object: { content: 'not mine' } })).status,
    ).toBe(403);

    const react = await send(alice, { type: 'React', to: replyId, object: { emoji: '👍' } });
    const reactId = react.body.createdId!;
    const changed = await send(alice, { type: 'Update', target: reactId, object: { emoji: '🎉' } });
    expect(changed.body.result).toMatchObject({ emoji: '🎉' });
    const reacted = (await getPost(replyId, bob)).body;
    expect(reacted.reactCount).toBe(1);
    expect(reacted.reactSummary).toEqual({ '🎉': 1 });

    const own = (
      await must(alice, {
        type: 'Create',
        objectType: 'Circle',
        to: alice.id,
        object: { name: 'Pals', members: [bob.id] },
      })
    ).createdId!;
    const circle = await send(alice, { type: 'Update', target: own, object: { name: 'Best friends' } });
    expect(circle.body.result).toMatchObject({ name: 'Best friends' });
    expect((await send(bob, { type: 'Update', target: own, object: { name: 'Mine now' } })).status).toBe(403);
    const blocked = (await followingOf(alice)).blocked;
    expect((await send(alice, { type: 'Update', target: blocked, object: { name: 'Renamed' } })).status).toBe(
      403,
    );
  });
});

describe('Delete', () => {
  test('deleting a post: 404 on GET, gone from timelines, postCount decremented, once', async () => {
    const bobFollowing = await follow(bob, alice);
    const post = await send(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Soon gone' },
    });
    const id = post.body.createdId!;
    expect(await timeline(bob, bobFollowing)).toContain(id);
    const before = (await userCounts(alice)).postCount;

    expect((await send(bob, { type: 'Delete', target: id })).status).toBe(403);
    const del = await send(alice, { type: 'Delete', target: id });
    expect(del.status).toBe(201);
    expect(del.body.result).toMatchObject({ id, type: 'Tombstone', deletedBy: alice.id });
    expect((await getPost(id, alice)).status).toBe(404);
    expect(await timeline(bob, bobFollowing)).not.toContain(id);
    expect((await userCounts(alice)).postCount).toBe(before - 1);
    // A second Delete is harmless and moves no counter.
    expect((await send(alice, { type: 'Delete', target: id })).status).toBe(201);
    expect((await userCounts(alice)).postCount).toBe(before - 1);
  });

  test('deleting a reply decrements the root and its first-level parent', async () => {
    const { postId, replyId } = await thread();
    const second = await send(bob, { type: 'Reply', to: replyId, object: { content: 'one more' } });
    const before = (await getPost(postId, alice)).body.replyCount;
    const parentBefore = (await getPost(replyId, alice)).body.replyCount;
    expect((await send(carol, { type: 'Delete', target: second.body.createdId })).status).toBe(404);
    expect((await send(bob, { type: 'Delete', target: second.body.createdId })).status).toBe(201);
    expect((await getPost(postId, alice)).body.replyCount).toBe(before - 1);
    expect((await getPost(replyId, alice)).body.replyCount).toBe(parentBefore - 1);
    expect((await getPost(second.body.createdId!, alice)).status).toBe(404);
  });

  test('deleting a reaction recounts its target', async () => {
    const { replyId } = await thread();
    await must(alice, { type: 'React', to: replyId, object: { emoji: '🎉' } });
    const react = await send(bob, { type: 'React', to: replyId, object: { emoji: '🔥' } });
    expect((await getPost(replyId, bob)).body.reactCount).toBe(2);
    expect((await send(alice, { type: 'Delete', target: react.body.createdId })).status).toBe(403);
    expect((await send(bob, { type: 'Delete', target: react.body.createdId })).status).toBe(201);
    const after = (await getPost(replyId, bob)).body;
    expect(after.reactCount).toBe(1);
    expect(after.reactSummary).toEqual({ '🎉': 1 });
  });

  test('circles: own circles can be deleted, system circles cannot; validation', async () => {
    const temp = await send(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Temp' },
    });
    expect((await send(bob, { type: 'Delete', target: temp.body.createdId })).status).toBe(404);
    expect((await send(alice, { type: 'Delete', target: temp.body.createdId })).status).toBe(201);
    expect((await api.get(`/circles/${temp.body.createdId}`, { token: alice.token })).status).toBe(404);
    expect((await send(alice, { type: 'Delete', target: (await followingOf(alice)).following })).status).toBe(
      403,
    );
    expect(
      (await send(alice, { type: 'Delete', target: 'post:000000000000000000000000@social.test' })).status,
    ).toBe(404);
    const noTarget = await send(alice, { type: 'Delete' });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error).toMatch(/^target: /);
    expect(
      (await send(alice, { type: 'Delete', target: 'flag:000000000000000000000000@social.test' })).status,
    ).toBe(400);
  });
});
