/**
 * The notifications story (spec 4.4, behaviour-notes §3.13, §6, decisions.md §7), through the
 * gateway: social publishes events, the notifications service consumes them asynchronously and
 * serves /notifications and /users/:id/notifications. This file: replies and read state, what is
 * stored against what the routes show, access control; notifications-events.test.ts has the
 * other kinds of events (test/harness/notifications.ts is the shared world).
 */
import { waitFor, type client } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import {
  bootNotifications,
  closeNotifications,
  count,
  expectNotes,
  list,
  Notification,
  notifRuntime,
  ofType,
  post,
  react,
  reply,
  type Changed,
  type Collection,
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
