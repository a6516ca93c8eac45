/**
 * Pages never skip or repeat an item, however many items share one millisecond (issue 21 item
 * 4: of 192 posts written by two replicas, one that shared its millisecond with another at a page
 * boundary never appeared). The server takes time from `new Date()` in many places, so the
 * fixtures are written by a second replica (this file's own stores on the server's database)
 * with fixed times: 60 of 70 items share one millisecond. Every list is read through the
 * gateway, 7 at a time, and must hold each item exactly once, in its order.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, createStores, type Database, type Stores } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { sqlitePathOf } from '@agora/common/runtime';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { storedTimes, storeNotificationsAt } from '../harness/stored';

const DOMAIN = 'social.test';
const T = Date.parse('2026-03-01T12:00:00.000Z');
const PAGE = 7;
/** Items 0–4 at T − 1 ms, 5–64 at T (60 in one millisecond), 65–69 at T + 1 ms. */
const N = 70;
const timeOf = (i: number) => new Date(i < 5 ? T - 1 : i < 65 ? T : T + 1);
/** Ids that sort as their index (24 hex: a run prefix, then the index). */
const run = randomBytes(6).toString('hex');
const idOf = (kind: string, i: number) => `${kind}:${run}${i.toString(16).padStart(12, '0')}@${DOMAIN}`;
const indexes = Array.from({ length: N }, (_, i) => i);
/** Newest first: the later time first, and in one millisecond the greater id first. */
const newestFirst = (kind: string) => indexes.map((i) => idOf(kind, i)).reverse();

type Page = {
  orderedItems?: Array<{ id: string }>;
  nextCursor?: string;
  totalItems?: number;
  error?: string;
};

let server: TestServer;
let api: ReturnType<typeof client>;
let db: Database;
let repos: Stores;
let alice: Actor, bob: Actor, carol: Actor;
let circleId: string;
let groupId: string;

/** A GET that must answer 200 (a 403 must never read as "the item is not there"). */
async function get(path: string, who?: Actor): Promise<Page> {
  const res = await api.get<Page>(path, who ? { token: who.token } : {});
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every id of a `page`/`limit` collection, PAGE at a time, until a short page. */
async function byPages(path: string, who?: Actor): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= 50; page++) {
    const items = (await get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&limit=${PAGE}`, who))
      .orderedItems!;
    ids.push(...items.map((i) => i.id));
    if (items.length < PAGE) return ids;
  }
  throw new Error(`${path}: more than 50 pages`);
}

/** Every id of the circle's timeline, following `nextCursor` back as `before`. */
async function byCursor(who: Actor, first = ''): Promise<string[]> {
  const ids: string[] = [];
  let before = first;
  for (let n = 0; n < 50; n++) {
    const q = `limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
    const page = await get(`/circles/${circleId}/posts?${q}`, who);
    ids.push(...page.orderedItems!.map((i) => i.id));
    if (!page.nextCursor) return ids;
    before = page.nextCursor;
  }
  throw new Error('the timeline has more than 50 pages');
}

function note(i: number, actorId: string, to: string) {
  return {
    id: idOf('post', i),
    actorId,
    to,
    canReply: '@public',
    canReact: '@public',
    type: 'Note',
    source: { content: `post ${i}`, mediaType: 'text/markdown' },
    body: `<p>post ${i}</p>`,
    publishedAt: timeOf(i),
  };
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob, carol] = (await Promise.all(['alice', 'bob', 'carol'].map((u) => registerActor(api, u)))) as [
    Actor,
    Actor,
    Actor,
  ];
  const send = async (who: Actor, activity: Record<string, unknown>) => {
    const res = await outbox(api, who, activity);
    if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.createdId!;
  };
  // Bob's circle holds alice: her posts make its timeline.
  circleId = await send(bob, { type: 'Create', objectType: 'Circle', to: bob.id, object: { name: 'Read' } });
  await send(bob, { type: 'Add', target: circleId, object: alice.id });
  groupId = await send(carol, { type: 'Create', objectType: 'Group', to: '@public', object: { name: 'G' } });

  // A second connection to the server's own database, as a second replica would have.
  db = await openDatabase({
    logger: createLogger({ level: 'silent', service: 'test' }),
    sqlitePath: sqlitePathOf(server.config),
  });
  repos = createStores(db, DOMAIN);
  for (const i of indexes) {
    // Alice's public posts: /posts, her author list and bob's circle timeline.
    await repos.posts.createLocal(note(i, alice.id, '@public'));
    // Carol's posts to her group: /groups/:id/posts.
    await repos.posts.createLocal({ ...note(i, carol.id, groupId), id: idOf('post', N + i), group: groupId });
    // Carol's replies to alice's first post: its thread.
    await repos.replies.create({
      id: idOf('reply', i),
      actorId: carol.id,
      target: idOf('post', 0),
      parent: idOf('post', 0),
      source: { content: `reply ${i}`, mediaType: 'text/markdown' },
      body: `<p>reply ${i}</p>`,
      createdAt: timeOf(i),
    });
  }
  // Bob's notifications (the store stamps the time itself: written as the harness does).
  await storeNotificationsAt(
    repos,
    indexes.map((i) => ({
      id: idOf('notification', i),
      recipientId: bob.id,
      actorId: carol.id,
      createdAt: timeOf(i),
    })),
  );
}, 600_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

test('the fixtures share their millisecond as stored', async () => {
  const times = async (collection: string, field: string, kind: string) => {
    const ids = indexes.slice(5, 65).map((i) => idOf(kind, i));
    const stored = await storedTimes(db, collection, field, ids);
    return [stored.length, new Set(stored)];
  };
  expect(await times('posts', 'publishedAt', 'post')).toEqual([60, new Set([T])]);
  expect(await times('replies', 'createdAt', 'reply')).toEqual([60, new Set([T])]);
  expect(await times('notifications', 'createdAt', 'notification')).toEqual([60, new Set([T])]);
});

test('a circle timeline read by nextCursor holds every post once, newest first', async () => {
  expect(await byCursor(bob)).toEqual(newestFirst('post'));
});

test('a timeline `before` still takes an ISO timestamp: the posts strictly older', async () => {
  const older = await byCursor(bob, new Date(T).toISOString());
  expect(older).toEqual([4, 3, 2, 1, 0].map((i) => idOf('post', i)));
});

test('cursors are opaque, and a malformed one is a 400 with an error', async () => {
  const first = await get(`/circles/${circleId}/posts?limit=${PAGE}`, bob);
  expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
  const bad = [
    'not-a-cursor',
    'MTIz',
    '%00',
    'x'.repeat(3000),
    b64('abc.post'),
    b64(`${T}.`),
    `${first.nextCursor}=`,
  ];
  for (const raw of bad) {
    const res = await api.get<Page>(`/circles/${circleId}/posts?before=${encodeURIComponent(raw)}`, {
      token: bob.token,
    });
    expect([res.status, typeof res.body.error]).toEqual([400, 'string']);
  }
});

test('GET /posts by page holds every post once, newest first', async () => {
  expect(await byPages('/posts')).toEqual(newestFirst('post'));
});

test("an author's posts by page hold every post once, newest first", async () => {
  expect(await byPages(`/users/${encodeURIComponent(alice.id)}/posts`, bob)).toEqual(newestFirst('post'));
});

test("a group's posts by page hold every post once, newest first", async () => {
  expect(await byPages(`/groups/${encodeURIComponent(groupId)}/posts`, bob)).toEqual(
    indexes.map((i) => idOf('post', N + i)).reverse(),
  );
});

test('a thread by page holds every reply once, oldest first', async () => {
  expect(await byPages(`/posts/${encodeURIComponent(idOf('post', 0))}/replies`, bob)).toEqual(
    indexes.map((i) => idOf('reply', i)),
  );
});

test('notifications by page hold every one once, newest first', async () => {
  expect(await byPages('/notifications', bob)).toEqual(newestFirst('notification'));
});

test('GET /outbox read by `next` (handed back as `before`) holds every public post once, newest first', async () => {
  const ids: string[] = [];
  let before = '';
  for (let n = 0; n < 50; n++) {
    const q = `from=${encodeURIComponent(alice.id)}&limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
    const res = await api.get<{ items?: Array<{ id: string }>; next?: string }>(`/outbox?${q}`);
    if (res.status !== 200) throw new Error(`GET /outbox?${q}: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(...res.body.items!.map((i) => i.id));
    if (!res.body.next) break;
    before = res.body.next;
  }
  expect(ids).toEqual(newestFirst('post'));
});
