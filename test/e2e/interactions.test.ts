/**
 * The interactions story of the social issue, part 1: alice posts to a circle with bob in it;
 * bob replies and reacts; carol, outside the circle, cannot; React replace/clear. (Update and
 * Delete are in interactions-edits.test.ts; Flag, Block/Mute, Follow and Undo in
 * interactions-relations.test.ts.) The users and alice's circle are shared (test/harness/
 * interactions.ts); every test makes its own post and thread and asserts counters as changes, so
 * the tests pass in any order and alone.
 */
import type { client } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import {
  bootInteractions,
  circlePost,
  closeInteractions,
  getPost,
  must,
  send,
  thread,
  userCounts,
  type Collection,
} from '../harness/interactions';

let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;
let circleId: string;

beforeAll(async () => {
  ({ api, alice, bob, carol, circleId } = await bootInteractions());
});
afterAll(closeInteractions);

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
