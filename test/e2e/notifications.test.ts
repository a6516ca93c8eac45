/**
 * The notifications story (spec 4.4, behaviour-notes §3.13, §6, decisions.md §7), through the
 * gateway: social publishes events, the notifications service consumes them asynchronously and
 * serves /notifications and /users/:id/notifications.
 */
import { randomUUID } from 'node:crypto';
import type { BusMessage } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';
import { createNotificationsContext, handleEvent } from '@agora/notifications';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { NOTIFICATIONS } from '@agora/common/db';

type Note = {
  id: string;
  type: string;
  recipientId: string;
  actorId: string;
  actorName?: string;
  objectId?: string;
  objectType?: string;
  activityId?: string;
  summary: string;
  href: string;
  read: boolean;
  dismissed: boolean;
  groupKey?: string;
} & Record<string, unknown>;
/** A stored notification as the port gives it back. */
type NotificationRow = Note & { _id: string };
type Collection = { type: string; id: string; totalItems: number; orderedItems: Note[] };
type Changed = { ok?: boolean; notification?: Note; error?: string };

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;
let publicUrl: string;
const events: BusMessage[] = [];

const send = async (who: Actor, activity: unknown) => {
  const res = await api.post<{ createdId?: string; result?: Record<string, unknown>; error?: string }>(
    '/outbox',
    activity,
    { token: who.token, headers: { 'idempotency-key': randomUUID() } },
  );
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const post = async (who: Actor, content: string, to = '@public') =>
  (await send(who, { type: 'Create', objectType: 'Post', to, object: { content } })).createdId!;
const reply = async (who: Actor, to: string, content: string) =>
  (await send(who, { type: 'Reply', to, object: { content } })).createdId!;
const react = (who: Actor, to: string, emoji = '👍') => send(who, { type: 'React', to, object: { emoji } });

const list = async (who: Actor, query = '') => {
  const res = await api.get<Collection>(`/notifications${query}`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body;
};
const count = async (who: Actor, query = '') =>
  (await api.get<{ count: number }>(`/notifications/unread/count${query}`, { token: who.token })).body.count;
const ofType = async (who: Actor, type: string) => (await list(who, `?types=${type}`)).orderedItems;
/** Waits until `who` has exactly `n` notifications of `type` (delivery is asynchronous). */
const expectNotes = async (who: Actor, type: string, n: number) => {
  await waitFor(async () => (await ofType(who, type)).length >= n, 10_000);
  const items = await ofType(who, type);
  expect(items).toHaveLength(n);
  return items;
};
const notifRuntime = (): Runtime => server.services.find((s) => s.name === 'notifications')!.runtime!;
const notifContext = () => createNotificationsContext(notifRuntime());
/** The stored notifications, read through the engine port (as the store reads them). */
const Notification = () => notifRuntime().db.engine.collection<NotificationRow>(NOTIFICATIONS);
/** The bus message social published for an event (captured by a queue of our own). */
const published = async (name: string, match: Record<string, unknown>): Promise<BusMessage> => {
  const find = () =>
    events.find(
      (e) =>
        e.name === name &&
        Object.entries(match).every(([k, v]) => (e.payload as Record<string, unknown>)[k] === v),
    );
  await waitFor(async () => Promise.resolve(Boolean(find())), 10_000);
  return find()!;
};

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  publicUrl = server.config.publicUrl;
  [alice, bob, carol, dave] = (await Promise.all(
    ['alice', 'bob', 'carol', 'dave'].map((n) => registerActor(api, n)),
  )) as [Actor, Actor, Actor, Actor];
  await server.services[0]!.runtime!.bus.subscribe('test.notifications', ['#'], (msg) => {
    events.push(msg);
    return Promise.resolve();
  });
});
afterAll(async () => {
  await server?.close();
});

describe('replies and read state', () => {
  let postId: string;
  let noteId: string;

  test("bob replies to alice's public post: alice gets one reply notification", async () => {
    postId = await post(alice, 'What do you think?');
    await reply(bob, postId, 'Looks good');
    const [note] = await expectNotes(alice, 'reply', 1);
    noteId = note!.id;
    expect(note).toMatchObject({
      type: 'reply',
      recipientId: alice.id,
      actorId: bob.id,
      actorName: 'bob',
      objectId: postId,
      objectType: 'Post',
      summary: 'bob replied to your post',
      href: `${publicUrl}/posts/${postId}`,
      read: false,
      dismissed: false,
      groupKey: `reply:${postId}`,
    });
    expect(note!.id).toMatch(/^notification:[0-9a-f]{24}@social\.test$/);
    expect(note!.activityId).toMatch(/^activity:[0-9a-f]{24}@social\.test$/);
    // Storage internals and the consumer's event key are not shown.
    expect(note).not.toHaveProperty('_id');
    expect(note).not.toHaveProperty('eventId');
    expect(await count(alice)).toBe(1);
    // The actor is not notified of their own reply.
    expect((await list(bob)).totalItems).toBe(0);
  });

  test('the list is a spec 1.5 collection; the users mount serves the same', async () => {
    const body = await list(alice);
    expect(body).toMatchObject({
      type: 'OrderedCollection',
      totalItems: 1,
      id: `${publicUrl}/notifications`,
    });
    const page = await api.get<Collection & { currentPage: number }>('/notifications?page=1&limit=1', {
      token: alice.token,
    });
    // A single-page result keeps the root form even when a page is asked for (spec 1.5).
    expect(page.body).toMatchObject({ type: 'OrderedCollection', totalItems: 1 });
    for (const who of [alice.id, encodeURIComponent(alice.id), 'alice']) {
      const res = await api.get<Collection>(`/users/${who}/notifications`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.orderedItems.map((n) => n.id)).toEqual([noteId]);
      expect(res.body.id).toContain('/notifications');
    }
    const viaUsers = await api.get<{ count: number }>(`/users/alice/notifications/unread/count`, {
      token: alice.token,
    });
    expect(viaUsers.body.count).toBe(1);
  });

  test('read → count 0, unread → 1, on either mount', async () => {
    const read = await api.post<Changed>(`/notifications/${noteId}/read`, undefined, { token: alice.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ok: true, notification: { id: noteId, read: true } });
    expect(await count(alice)).toBe(0);
    expect((await list(alice, '?unread=true')).totalItems).toBe(0);
    expect((await list(alice)).totalItems).toBe(1);

    const unread = await api.post<Changed>(`/users/${alice.id}/notifications/${noteId}/unread`, undefined, {
      token: alice.token,
    });
    expect(unread.body).toMatchObject({ ok: true, notification: { id: noteId, read: false } });
    expect(await count(alice)).toBe(1);
  });

  test('a second reply in the same thread while the first is unread is grouped into it', async () => {
    await reply(carol, postId, 'Agreed');
    await reply(bob, postId, 'Me again');
    // Carol's reply to another post is a different group: it arrives, so the others were handled.
    const other = await post(alice, 'Second thread');
    await reply(carol, other, 'Here too');
    await waitFor(async () => (await ofType(alice, 'reply')).some((n) => n.objectId === other), 10_000);
    expect((await ofType(alice, 'reply')).map((n) => n.objectId).sort()).toEqual([postId, other].sort());
  });

  test('dismiss hides it from the list (read flag untouched); read-all honours types', async () => {
    const dismissed = await api.post<Changed>(`/notifications/${noteId}/dismiss`, undefined, {
      token: alice.token,
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      ok: true,
      notification: { id: noteId, dismissed: true, read: false },
    });
    expect((await list(alice)).orderedItems.map((n) => n.id)).not.toContain(noteId);
    // Dismissed ones are not counted as unread.
    expect(await count(alice)).toBe(1);

    await react(bob, postId);
    await expectNotes(alice, 'react', 1);
    expect(await count(alice)).toBe(2);
    expect(await count(alice, '?types=react')).toBe(1);
    const second = await api.get<Collection & { currentPage: number; prev?: string }>(
      '/notifications?page=2&limit=1',
      { token: alice.token },
    );
    expect(second.body).toMatchObject({ type: 'OrderedCollectionPage', totalItems: 2, currentPage: 2 });
    expect(second.body.prev).toBe(`${publicUrl}/notifications?limit=1&page=1`);

    // read-all with types marks only those (dismissed ones included, behaviour-notes §6.4).
    const some = await api.post<{ ok: boolean; updated: number }>(
      '/notifications/read-all?types=react',
      undefined,
      {
        token: alice.token,
      },
    );
    expect(some.body).toMatchObject({ ok: true, updated: 1 });
    expect(await count(alice, '?types=react')).toBe(0);
    expect(await count(alice)).toBe(1);
    const all = await api.post<{ ok: boolean; updated: number }>(
      `/users/alice/notifications/read-all`,
      undefined,
      { token: alice.token },
    );
    // The remaining visible reply and the dismissed one.
    expect(all.body).toMatchObject({ ok: true, updated: 2 });
    expect(await count(alice)).toBe(0);
    expect(
      await Notification().count({ recipientId: alice.id, dismissed: { $in: [false, true] }, read: false }),
    ).toBe(0);
  });
});

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

describe('the stored notifications and what the routes show', () => {
  test('the counts and totals the routes show match the stored notifications', async () => {
    for (const who of [alice, bob, carol, dave]) {
      const stored = Notification();
      const unread = await stored.count({ recipientId: who.id, read: false, dismissed: false });
      const visible = await stored.count({ recipientId: who.id, dismissed: false });
      const replies = await stored.count({ recipientId: who.id, dismissed: false, type: 'reply' });
      expect([who.username, await count(who)]).toEqual([who.username, unread]);
      expect([who.username, (await list(who)).totalItems]).toEqual([who.username, visible]);
      expect([who.username, (await list(who, '?types=reply')).totalItems]).toEqual([who.username, replies]);
    }
  });

  test('a notification another replica stores is listed and counted at once, its bookkeeping hidden', async () => {
    const before = await count(carol);
    const id = `notification:${'a'.repeat(24)}@social.test`;
    const stored = await notifRuntime().repos.notifications.create({
      id,
      type: 'follow',
      recipientId: carol.id,
      actorId: bob.id,
      actorName: 'bob',
      summary: 'bob followed you',
      href: '/users/bob',
      groupKey: `follow:${id}`,
      eventId: `replica-1|follow|${carol.id}`,
    });
    expect(stored).toBe('created');
    expect(await count(carol)).toBe(before + 1);
    const items = (await list(carol)).orderedItems;
    expect(items[0]!.id).toBe(id);
    expect(items.filter((n) => n.id === id)).toHaveLength(1);
    for (const hidden of ['_id', 'eventId', 'groupSeq']) expect(items[0]).not.toHaveProperty(hidden);
  });
});

describe('access control and input checks', () => {
  let aliceNote: string;
  beforeAll(async () => {
    aliceNote = (await list(alice)).orderedItems[0]!.id;
  });

  test('anonymous callers get 401 on every route of both mounts', async () => {
    for (const base of ['/notifications', `/users/${alice.id}/notifications`, '/users/alice/notifications']) {
      const calls = [
        api.get(base),
        api.get(`${base}/unread/count`),
        api.post(`${base}/read-all`),
        api.post(`${base}/${aliceNote}/read`),
        api.post(`${base}/${aliceNote}/unread`),
        api.post(`${base}/${aliceNote}/dismiss`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Unauthorized' });
      }
    }
  });

  test("another user cannot touch someone else's notification (404) or list theirs (403)", async () => {
    for (const op of ['read', 'unread', 'dismiss']) {
      const res = await api.post(`/notifications/${aliceNote}/${op}`, undefined, { token: bob.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Notification not found' });
    }
    expect((await Notification().findOne({ _id: aliceNote }))!.dismissed).toBe(false);
    for (const path of [`/users/${alice.id}/notifications`, '/users/alice/notifications/unread/count']) {
      const res = await api.get(path, { token: bob.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Access denied' });
    }
    const viaOther = await api.post(`/users/alice/notifications/${aliceNote}/read`, undefined, {
      token: bob.token,
    });
    expect(viaOther.status).toBe(403);
    const missing = await api.post(
      '/notifications/notification:000000000000000000000000@social.test/read',
      undefined,
      {
        token: alice.token,
      },
    );
    expect(missing.status).toBe(404);
  });

  test('GET /__routes lists both mounts in full', async () => {
    const res = await api.get<{ routes: Array<{ methods: string[]; path: string }> }>('/__routes');
    const keys = res.body.routes.map((r) => `${r.methods.join()} ${r.path}`);
    for (const base of ['/notifications', '/users/:id/notifications'])
      expect(keys).toEqual(
        expect.arrayContaining([
          `GET ${base}`,
          `GET ${base}/unread/count`,
          `POST ${base}/read-all`,
          `POST ${base}/:notifId/read`,
          `POST ${base}/:notifId/unread`,
          `POST ${base}/:notifId/dismiss`,
        ]),
      );
  });

  test('operator injection in :notifId or the query is refused or harmless', async () => {
    const injected = await api.post(`/notifications/${encodeURIComponent('{"$ne":null}')}/read`, undefined, {
      token: bob.token,
    });
    expect(injected.status).toBe(404);
    for (const q of ['?types[$ne]=x', '?types=reply,bogus', '?unread[$ne]=1', '?unread=maybe']) {
      const res = await api.get<{ error: string }>(`/notifications${q}`, { token: bob.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^(types|unread): /);
    }
    expect(
      (await api.post('/notifications/read-all?types[$gt]=', undefined, { token: bob.token })).status,
    ).toBe(400);
    const paged = await api.get<Collection>('/notifications?page[$gt]=1&limit[$gt]=1', { token: bob.token });
    expect(paged.status).toBe(200);
    // Nobody else's notifications leaked into bob's list.
    expect(paged.body.orderedItems.every((n) => n.recipientId === bob.id)).toBe(true);
  });
});
