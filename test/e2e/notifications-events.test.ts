/**
 * The notifications story (spec 4.4, behaviour-notes §3.13, §6, decisions.md §7), continued from
 * notifications.test.ts: reactions, self-actions, preferences and blocks; follows, groups,
 * mentions and new posts; the consumer's idempotency per event (test/harness/notifications.ts is
 * the shared world). The describes build on each other (dave blocks carol before carol posts).
 */
import type { BusMessage } from '@agora/common/messaging';
import { handleEvent } from '@agora/notifications';
import { waitFor, type client } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import {
  bootNotifications,
  closeNotifications,
  expectNotes,
  list,
  Notification,
  notifContext,
  ofType,
  post,
  published,
  react,
  reply,
  send,
} from '../harness/notifications';

let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;
let publicUrl: string;

beforeAll(async () => {
  ({
    api,
    publicUrl,
    actors: [alice, bob, carol, dave],
  } = await bootNotifications());
});
afterAll(closeNotifications);

describe('reactions, self-actions, preferences, blocks', () => {
  test("bob's reaction notifies the author with a react notification", async () => {
    const id = await post(carol, 'React to me');
    await react(bob, id, '🎉');
    const [note] = await expectNotes(carol, 'react', 1);
    expect(note).toMatchObject({
      actorId: bob.id,
      objectId: id,
      objectType: 'Post',
      summary: 'bob reacted to your post',
      href: `${publicUrl}/posts/${id}`,
      groupKey: `react:${id}`,
    });
    // Once that one is read, replacing the emoji is still not a new reaction; dave's is.
    await api.post(`/notifications/${note!.id}/read`, undefined, { token: carol.token });
    await react(bob, id, '❤️');
    await react(dave, id, '❤️');
    await waitFor(async () => (await ofType(carol, 'react')).some((n) => n.actorId === dave.id), 10_000);
    expect((await ofType(carol, 'react')).map((n) => n.actorId)).toEqual([dave.id, bob.id]);
  });

  test('self-actions notify nobody', async () => {
    const id = await post(dave, 'My own post');
    const replyId = await reply(dave, id, 'My own reply');
    await react(dave, id);
    const msg = await published('reply.created', { replyId });
    // Fed to the consumer again, the self-reply is recognised as such.
    expect(await handleEvent(notifContext(), msg)).toEqual(['self']);
    const reacted = await published('react.added', { target: id, actorId: dave.id });
    expect(await handleEvent(notifContext(), reacted)).toEqual(['self']);
    expect((await list(dave)).totalItems).toBe(0);
  });

  test('prefs.notifications.reply=false silences replies but not reactions', async () => {
    await send(bob, {
      type: 'Update',
      target: bob.id,
      object: { prefs: { notifications: { reply: false } } },
    });
    const id = await post(bob, 'No reply notifications please');
    await reply(carol, id, 'A reply bob will not hear about');
    await react(carol, id);
    await expectNotes(bob, 'react', 1);
    const msg = await published('reply.created', { rootId: id });
    expect(await handleEvent(notifContext(), msg)).toEqual(['opted_out']);
    expect(await ofType(bob, 'reply')).toHaveLength(0);
  });

  test('nothing from someone the recipient blocked', async () => {
    await send(dave, { type: 'Block', target: carol.id });
    const id = await post(dave, 'Blocked people stay quiet');
    await react(carol, id);
    await react(alice, id);
    await waitFor(async () => (await ofType(dave, 'react')).length > 0, 10_000);
    const msg = await published('react.added', { target: id, actorId: carol.id });
    expect(await handleEvent(notifContext(), msg)).toEqual(['blocked']);
    expect((await ofType(dave, 'react')).map((n) => n.actorId)).toEqual([alice.id]);
  });
});

describe('follows, groups, mentions, new posts', () => {
  test('Follow and Add to Following notify the followed user; other circles do not', async () => {
    await send(bob, { type: 'Follow', object: carol.id });
    const [note] = await expectNotes(carol, 'follow', 1);
    expect(note).toMatchObject({
      actorId: bob.id,
      objectId: bob.id,
      objectType: 'User',
      summary: 'bob followed you',
      href: `${publicUrl}/users/${encodeURIComponent(bob.id)}`,
    });
    // Adding carol to a circle of dave's own is curation, not a follow.
    const watch = await send(dave, {
      type: 'Create',
      objectType: 'Circle',
      to: dave.id,
      object: { name: 'Watch' },
    });
    await send(dave, { type: 'Add', target: watch.createdId!, object: carol.id });
    const curated = await published('member.added', { circleId: watch.createdId!, memberId: carol.id });
    expect(await handleEvent(notifContext(), curated)).toEqual([]);
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
    await send(alice, { type: 'Add', target: me.body.user.following, object: carol.id });
    await waitFor(async () => (await ofType(carol, 'follow')).length >= 2, 10_000);
    expect((await ofType(carol, 'follow')).map((n) => n.actorId).sort()).toEqual([alice.id, bob.id].sort());
  });

  test('a join request notifies the admins; the approval notifies the member', async () => {
    const group = await send(alice, {
      type: 'Create',
      objectType: 'Group',
      to: '@public',
      object: { name: 'Book club', rsvpPolicy: 'approvalOnly' },
    });
    const groupId = group.createdId!;
    await send(dave, { type: 'Join', target: groupId });
    const [request] = await expectNotes(alice, 'join_request', 1);
    expect(request).toMatchObject({
      actorId: dave.id,
      objectId: groupId,
      objectType: 'Group',
      summary: 'dave requested to join "Book club"',
      href: `${publicUrl}/groups/${groupId}`,
    });
    await send(alice, { type: 'Add', to: groupId, object: dave.id });
    const [approved] = await expectNotes(dave, 'join_approved', 1);
    expect(approved).toMatchObject({
      actorId: alice.id,
      objectId: groupId,
      summary: 'Your request to join "Book club" was approved',
    });
  });

  test('mentions notify local users who can read the post, never others', async () => {
    const inner = await send(bob, {
      type: 'Create',
      objectType: 'Circle',
      to: bob.id,
      object: { name: 'Inner', members: [alice.id] },
    });
    const secret = await post(bob, 'Secret plans, @dave@social.test must not know', inner.createdId);
    const secretMsg = await published('post.created', { postId: secret });
    expect(await handleEvent(notifContext(), secretMsg)).toEqual([]);
    const id = await post(bob, 'Hello @dave@social.test and @nobody@social.test, cc @x@elsewhere.test');
    const [note] = await expectNotes(dave, 'mention', 1);
    expect(note).toMatchObject({
      actorId: bob.id,
      objectId: id,
      objectType: 'Post',
      summary: 'bob mentioned you',
      href: `${publicUrl}/posts/${id}`,
      groupKey: `mention:${id}:${dave.id}`,
    });
  });

  test('new posts reach followers as one digest per feed until read', async () => {
    // bob and alice follow carol (above), so carol's posts make them a digest.
    await post(carol, 'First news');
    const [digest] = await expectNotes(bob, 'new_post', 1);
    expect(digest).toMatchObject({
      actorId: carol.id,
      actorName: 'carol',
      summary: 'Your feeds have new posts',
      groupKey: 'feed',
      href: `${publicUrl}/`,
    });
    // One event, two notifications: both name the actor (read once for the event).
    const [other] = await expectNotes(alice, 'new_post', 1);
    expect(other).toMatchObject({ actorId: carol.id, actorName: 'carol' });
    const second = await post(carol, 'More news');
    const msg = await published('post.created', { postId: second });
    expect(await handleEvent(notifContext(), msg)).not.toContain('created');
    expect(await ofType(bob, 'new_post')).toHaveLength(1);
    expect(await ofType(alice, 'new_post')).toHaveLength(1);
    // A post only its author may read is nobody's news.
    const own = await post(carol, 'Diary', carol.id);
    expect(await handleEvent(notifContext(), await published('post.created', { postId: own }))).toEqual([]);
  });

  test('a digest goes only to owners of circles the author is still in when the event is handled', async () => {
    // The candidates come from the post's fan-out circles, written when it was posted.
    const [erin, frank] = (await Promise.all(['erin', 'frank'].map((n) => registerActor(api, n)))) as [
      Actor,
      Actor,
    ];
    await send(erin, { type: 'Follow', object: frank.id });
    const msg = await published('post.created', { postId: await post(frank, 'Hello followers') });
    // erin, in frank's only outside circle, is the one recipient (a digest made now, or grouped).
    expect(await handleEvent(notifContext(), { ...msg, id: `${msg.id}-before` })).toHaveLength(1);
    await send(erin, { type: 'Unfollow', object: frank.id });
    expect(await handleEvent(notifContext(), { ...msg, id: `${msg.id}-after` })).toEqual([]);
  });
});

describe('the consumer is idempotent per event', () => {
  test('the same bus message twice makes one notification; a new event after reading makes another', async () => {
    const id = await post(dave, 'Idempotency');
    const replyId = await reply(alice, id, 'once');
    const msg = await published('reply.created', { replyId });
    const [first] = await expectNotes(dave, 'reply', 1);
    // Read, so grouping cannot be what stops the second copy.
    await api.post(`/notifications/${first!.id}/read`, undefined, { token: dave.token });
    expect(await handleEvent(notifContext(), msg)).toEqual(['duplicate']);
    expect(await handleEvent(notifContext(), { ...msg, attempt: 2 })).toEqual(['duplicate']);
    expect(await Notification().count({ recipientId: dave.id, dismissed: false, type: 'reply' })).toBe(1);
    // A different event id for the same reply is a new event.
    expect(await handleEvent(notifContext(), { ...msg, id: `${msg.id}-other` })).toEqual(['created']);
    expect(await Notification().count({ recipientId: dave.id, dismissed: false, type: 'reply' })).toBe(2);
  });

  test('a malformed payload is refused for dead-lettering, not retried', async () => {
    const bad: BusMessage = {
      id: 'bad-1',
      name: 'reply.created',
      payload: { replyId: { $ne: null } },
      headers: {},
      attempt: 1,
      publishedAt: new Date().toISOString(),
    };
    await expect(handleEvent(notifContext(), bad)).rejects.toMatchObject({ name: 'PermanentMessageError' });
  });
});
