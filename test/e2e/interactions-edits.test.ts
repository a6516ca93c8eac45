/**
 * The interactions story of the social issue, part 1 continued (interactions.test.ts): Update and
 * Delete of posts, replies, reactions and circles, with their validation and authorisation. The
 * users and alice's circle are shared (test/harness/interactions.ts); every test makes its own
 * post and thread and asserts counters as changes, so the tests pass in any order and alone.
 */
import type { client } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import {
  bootInteractions,
  circlePost,
  closeInteractions,
  follow,
  followingOf,
  getPost,
  must,
  send,
  thread,
  timeline,
  userCounts,
} from '../harness/interactions';

let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;
let circleId: string;

beforeAll(async () => {
  ({ api, alice, bob, carol, circleId } = await bootInteractions());
});
afterAll(closeInteractions);

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
