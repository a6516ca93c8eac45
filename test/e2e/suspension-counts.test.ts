/**
 * What a suspension leaves out besides the items themselves (ADR 0028): the notifications that
 * point at the suspended account's acts (its follow, reply, reaction, mention) leave the
 * recipient's list and unread count, and the totals and counters that counted its content (the
 * totals of `/posts` and of a group's posts, a post's `replyCount`, `reactCount` and
 * `reactSummary`) stop counting it; the restore brings every one back as it was. And a request
 * reads the suspended set's stamp once, however many items it checks.
 */
import { randomUUID } from 'node:crypto';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { STAMPS } from '@agora/common/cache';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let bob: Actor;
let carol: Actor;
let bobPost: string;
let groupId: string;
const enc = encodeURIComponent;

type Row = Record<string, unknown> & { id: string };
interface Page {
  totalItems: number;
  orderedItems: Row[];
}

const as = (who?: Actor) => (who ? { token: who.token } : {});

async function created(who: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(api, who, activity);
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

const publicPost = (who: Actor, content: string, to = '@public') =>
  created(who, { type: 'Create', objectType: 'Post', to, object: { content } });

async function notifications(who: Actor) {
  const res = await api.get<Page>('/notifications', as(who));
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'sc_alice');
  bob = await registerActor(api, 'sc_bob');
  carol = await registerActor(api, 'sc_carol');
  groupId = await created(bob, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: `Lighthouse keepers ${randomUUID().slice(0, 8)}`, rsvpPolicy: 'open' },
  });
  for (const who of [alice, carol])
    expect((await outbox(api, who, { type: 'Join', target: groupId })).status).toBe(201);

  bobPost = await publicPost(bob, 'The lamp needs oil');
  const bobOther = await publicPost(bob, 'The lens needs cleaning');
  await publicPost(alice, 'Notes from the rock');
  await publicPost(alice, `Ask ${bob.id} about the lamp`);
  await publicPost(carol, 'Foghorn schedule');
  await publicPost(alice, 'Group notes by alice', groupId);
  await publicPost(carol, 'Group notes by carol', groupId);
  const follow = (who: Actor) => outbox(api, who, { type: 'Follow', object: bob.id });
  const reply = (who: Actor, to: string) =>
    created(who, { type: 'Reply', to, object: { content: `oil is here, ${who.username}` } });
  const react = (who: Actor, to: string, emoji: string) =>
    outbox(api, who, { type: 'React', to, object: { emoji } });
  // carol, then alice, reply to and react on bob's post (one notification each kind: grouped
  // under carol's); alice alone on his other post, so her reply and reaction notify him.
  expect((await follow(carol)).status).toBe(201);
  await reply(carol, bobPost);
  expect((await react(carol, bobPost, '⚓')).status).toBe(201);
  await waitFor(async () => (await notifications(bob)).orderedItems.some((n) => n.type === 'react'), 20_000);
  expect((await follow(alice)).status).toBe(201);
  await reply(alice, bobPost);
  expect((await react(alice, bobPost, '🔦')).status).toBe(201);
  await reply(alice, bobOther);
  expect((await react(alice, bobOther, '🔦')).status).toBe(201);
  // Notifications are written by a consumer: wait for alice's follow, mention, reply and reaction.
  const wanted = ['follow', 'mention', 'reply', 'react'].map((t) => `${t}:${alice.id}`);
  await waitFor(async () => {
    const seen = (await notifications(bob)).orderedItems.map((n) => `${String(n.type)}:${String(n.actorId)}`);
    return wanted.every((w) => seen.includes(w));
  }, 20_000);
});
afterAll(async () => {
  await server?.close();
});

/** What bob and anonymous readers see of the counts, as one snapshot. */
async function counts() {
  const list = await notifications(bob);
  const unread = await api.get<{ count: number }>('/notifications/unread/count', as(bob));
  const local = await api.get<Page>('/posts', as(bob));
  const localNotes = await api.get<Page>('/posts?type=Note', as(bob));
  const publicOnly = await api.get<Page>('/posts?to=public');
  const group = await api.get<Page>(`/groups/${enc(groupId)}/posts`, as(bob));
  const groupNotes = await api.get<Page>(`/groups/${enc(groupId)}/posts?type=Note`);
  const post = await api.get<Row>(`/posts/${enc(bobPost)}`, as(bob));
  const inList = (local.body.orderedItems ?? []).find((p) => p.id === bobPost);
  const counters = (p: Row | undefined) => ({
    replyCount: p?.replyCount,
    reactCount: p?.reactCount,
    reactSummary: p?.reactSummary,
  });
  return {
    notifications: {
      total: list.totalItems,
      actors: [...new Set(list.orderedItems.map((n) => n.actorId))].sort(),
      types: list.orderedItems.map((n) => `${String(n.type)}:${String(n.actorId)}`).sort(),
    },
    unread: unread.body.count,
    totals: {
      local: local.body.totalItems,
      localNotes: localNotes.body.totalItems,
      publicOnly: publicOnly.body.totalItems,
      group: group.body.totalItems,
      groupNotes: groupNotes.body.totalItems,
    },
    shown: {
      local: local.body.orderedItems.length,
      group: group.body.orderedItems.length,
    },
    post: { status: post.status, ...counters(post.body) },
    inList: counters(inList),
  };
}

test('while an account is suspended, notifications of its acts and every total or counter that counted its content leave it out; the restore brings them back', async () => {
  const before = await counts();
  expect(before.notifications.actors).toEqual([alice.id, carol.id].sort());
  expect(before.notifications.types).toEqual(
    expect.arrayContaining(['follow', 'mention', 'reply', 'react'].map((t) => `${t}:${alice.id}`)),
  );
  expect(before.post).toMatchObject({ status: 200, replyCount: 2, reactCount: 2 });
  expect(before.post.reactSummary).toEqual({ '⚓': 1, '🔦': 1 });
  expect(before.inList).toEqual({
    replyCount: before.post.replyCount,
    reactCount: before.post.reactCount,
    reactSummary: before.post.reactSummary,
  });
  expect(before.totals.group).toBe(2);

  expect((await api.call('DELETE', `/admin/users/${enc(alice.id)}`, { token: admin })).status).toBe(200);

  const during = await counts();
  const fromAlice = before.notifications.types.filter((t) => t.endsWith(`:${alice.id}`)).length;
  expect(fromAlice).toBeGreaterThanOrEqual(4);
  expect(during.notifications).toEqual({
    total: before.notifications.total - fromAlice,
    actors: [carol.id],
    types: before.notifications.types.filter((t) => !t.endsWith(`:${alice.id}`)),
  });
  expect(during.unread).toBe(before.unread - fromAlice);
  // alice's three posts: two public ones and one to the (public) group, which no tier list holds.
  expect(during.totals).toEqual({
    local: before.totals.local - 2,
    localNotes: before.totals.localNotes - 2,
    publicOnly: before.totals.publicOnly - 2,
    group: 1,
    groupNotes: 1,
  });
  // Every item the totals count is listed (pages of 20 hold them all here).
  expect(during.shown).toEqual({ local: during.totals.local, group: 1 });
  expect(during.post).toEqual({ status: 200, replyCount: 1, reactCount: 1, reactSummary: { '⚓': 1 } });
  expect(during.inList).toEqual({ replyCount: 1, reactCount: 1, reactSummary: { '⚓': 1 } });

  expect((await api.call('POST', `/admin/users/${enc(alice.id)}/restore`, { token: admin })).status).toBe(
    200,
  );
  expect(await counts()).toEqual(before);
});

test('a page of notifications past the first leaves the suspended account out too', async () => {
  const all = (await notifications(bob)).orderedItems.map((n) => n.id);
  expect((await api.call('DELETE', `/admin/users/${enc(alice.id)}`, { token: admin })).status).toBe(200);
  const kept = (await notifications(bob)).orderedItems.map((n) => n.id);
  // One per page, from the second on: every page is the next of what is kept.
  const paged: string[] = [];
  for (let page = 1; page <= kept.length; page++) {
    const res = await api.get<Page>(`/notifications?page=${page}&limit=1`, as(bob));
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBe(kept.length);
    paged.push(...res.body.orderedItems.map((n) => n.id));
  }
  expect(paged).toEqual(kept);
  expect(kept.length).toBeLessThan(all.length);
  expect((await api.call('POST', `/admin/users/${enc(alice.id)}/restore`, { token: admin })).status).toBe(
    200,
  );
  expect((await notifications(bob)).orderedItems.map((n) => n.id)).toEqual(all);
});

test("a search verifying many candidates reads the suspended set's stamp once, not once per candidate", async () => {
  // The candidates: every post with "notes" (alice's two and carol's one; search indexes them
  // through a consumer).
  const search = () => api.get<Page>('/search?q=notes', as(bob));
  await waitFor(async () => (await search()).body.totalItems >= 3, 20_000);
  // The real stamp store, its reads of the suspended set's stamp counted.
  const stamps = server.services.find((s) => s.name === 'social')!.runtime!.stamps;
  const read = stamps.read.bind(stamps);
  let reads = 0;
  stamps.read = (keys) => {
    if (keys.includes(STAMPS.suspended)) reads++;
    return read(keys);
  };
  try {
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBeGreaterThanOrEqual(3);
    expect(reads).toBe(1);
  } finally {
    stamps.read = read;
  }
});
