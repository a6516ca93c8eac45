/**
 * Idempotency-Key on POST /outbox (decisions.md §4): the key is claimed before the handler runs,
 * so truly concurrent requests with one key store one activity and one post; repeats replay the
 * first response; a request while the holder still runs waits, then answers 409; another body
 * with the key is 422; a failed request releases the key so a retry runs. Each test has its own
 * actors and keys, so the tests run in any order.
 */
import { randomUUID } from 'node:crypto';
import { requestHash } from '@agora/common/db';
import { runGc } from '../../services/social/src/workers/gc';
import { registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { createSocialContext } from '../../services/social/src/context';

type Body = {
  ok?: boolean;
  activity?: Record<string, unknown>;
  result?: Record<string, unknown> | null;
  createdId?: string;
  error?: string;
};

let server: TestServer;
let api: ReturnType<typeof client>;
let adminToken: string;
let n = 0;

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
  adminToken = login.body.token;
});
afterAll(async () => {
  await server?.close();
});

const store = () => server.services[0]!.runtime!.repos.idempotency;
const fresh = (name: string) => registerActor(api, `${name}${(n += 1)}`);
const send = (who: Actor, body: unknown, key: string) =>
  api.post<Body>('/outbox', body, { token: who.token, headers: { 'idempotency-key': key } });
const newPost = (content: string) => ({
  type: 'Create',
  objectType: 'Post',
  to: '@public',
  object: { content },
});

/** How many activities of a type the audit log holds for an actor (admin API). */
async function activityCount(actorId: string, type: string): Promise<number> {
  const q = new URLSearchParams({ actorId, type });
  const res = await api.get<{ totalItems: number }>(`/admin/activities?${q.toString()}`, {
    token: adminToken,
  });
  if (res.status !== 200) throw new Error(`admin/activities: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.totalItems;
}

/** The ids of an actor's posts whose body holds a marker (as the author reads them). */
async function postsWith(who: Actor, marker: string): Promise<string[]> {
  const res = await api.get<{ orderedItems: Array<{ id: string; body?: string }> }>(
    `/users/${encodeURIComponent(who.id)}/posts`,
    { token: who.token },
  );
  if (res.status !== 200) throw new Error(`posts of ${who.id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.filter((p) => p.body?.includes(marker)).map((p) => p.id);
}

test('six concurrent identical requests store one activity and one post; the rest replay it', async () => {
  const alice = await fresh('alice');
  const marker = `concurrent-${randomUUID()}`;
  const body = newPost(marker);
  const key = randomUUID();
  const before = await activityCount(alice.id, 'Create');

  const answers = await Promise.all(Array.from({ length: 6 }, () => send(alice, body, key)));

  const created = answers.filter((a) => a.status === 201);
  expect(created).toHaveLength(1);
  const first = created[0]!;
  expect(first.body.createdId).toEqual(expect.any(String));
  for (const a of answers.filter((x) => x !== first)) {
    // Each waited for the first and replayed it, or (on a slow machine) gave up with 409.
    expect([200, 409]).toContain(a.status);
    if (a.status === 200) expect(a.body).toEqual(first.body);
  }
  // Once the first has finished, every repeat is a replay of exactly its response.
  const again = await send(alice, { ...body, object: { content: marker } }, key);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(first.body);

  expect(await activityCount(alice.id, 'Create')).toBe(before + 1);
  expect(await postsWith(alice, marker)).toEqual([first.body.createdId]);
  expect(await store().find(alice.id, key)).toMatchObject({ state: 'done', status: 201 });
});

test('the key is per actor, and reusing it with another body is 422 without running anything', async () => {
  const [alice, bob] = await Promise.all([fresh('alice'), fresh('bob')]);
  const marker = `per-actor-${randomUUID()}`;
  const key = randomUUID();
  const a = await send(alice, newPost(marker), key);
  expect(a.status).toBe(201);
  const b = await send(bob, newPost(marker), key);
  expect(b.status).toBe(201);
  expect(b.body.createdId).not.toBe(a.body.createdId);

  const other = await send(alice, newPost(`${marker} changed`), key);
  expect(other.status).toBe(422);
  expect(other.body.error).toMatch(/Idempotency-Key/);
  // Key order in the body does not matter: it is the same request.
  const reordered = await send(
    alice,
    { object: { content: marker }, to: '@public', objectType: 'Post', type: 'Create' },
    key,
  );
  expect(reordered.status).toBe(200);
  expect(reordered.body.createdId).toBe(a.body.createdId);
  expect(await postsWith(alice, marker)).toEqual([a.body.createdId]);
});

test('while another request holds the key: the same body gets 409 after waiting, another body 422', async () => {
  const alice = await fresh('alice');
  const marker = `in-flight-${randomUUID()}`;
  const body = newPost(marker);
  const key = randomUUID();
  // A request with this key is running elsewhere (another replica) and has not finished.
  expect(await store().claim(alice.id, key, requestHash(body))).toEqual({ outcome: 'claimed' });

  const [same, different] = await Promise.all([
    send(alice, body, key),
    send(alice, newPost(`${marker} other`), key),
  ]);
  expect(same.status).toBe(409);
  expect(same.body.error).toMatch(/in progress/);
  expect(different.status).toBe(422);
  expect(await postsWith(alice, marker)).toEqual([]);
  expect(await store().find(alice.id, key)).toMatchObject({ state: 'pending' });

  // The holder finishes with a response: a waiting request replays it instead of running.
  const waiting = send(alice, body, key);
  await store().complete(alice.id, key, {
    status: 201,
    response: { activity: { id: 'activity:held' }, result: null, createdId: 'post:held' },
  });
  const replay = await waiting;
  expect(replay.status).toBe(200);
  expect(replay.body).toMatchObject({ ok: true, createdId: 'post:held', result: null });
  expect(await postsWith(alice, marker)).toEqual([]);
});

test('a failed request releases its key: concurrent failures store nothing, and a retry runs', async () => {
  const [alice, bob] = await Promise.all([fresh('alice'), fresh('bob')]);
  const circle = await send(
    alice,
    { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Inner' } },
    randomUUID(),
  );
  expect(circle.status).toBe(201);
  const post = await send(
    alice,
    { type: 'Create', objectType: 'Post', to: circle.body.createdId, object: { content: 'inner only' } },
    randomUUID(),
  );
  expect(post.status).toBe(201);
  const react = { type: 'React', to: post.body.createdId, object: { emoji: '🎉' } };
  const key = randomUUID();

  // bob cannot see the post yet: every attempt fails, and none leaves the key claimed.
  const failed = await Promise.all(Array.from({ length: 4 }, () => send(bob, react, key)));
  for (const f of failed) expect([403, 404]).toContain(f.status);
  expect(await store().find(bob.id, key)).toBeNull();
  expect(await activityCount(bob.id, 'React')).toBe(0);

  // Once bob is in the circle, the same request with the same key runs (not a replay of the failure).
  const add = await send(alice, { type: 'Add', target: circle.body.createdId, object: bob.id }, randomUUID());
  expect(add.status).toBe(201);
  const retry = await send(bob, react, key);
  expect(retry.status).toBe(201);
  expect((await send(bob, react, key)).status).toBe(200);
  expect(await activityCount(bob.id, 'React')).toBe(1);
});

test('an expired key reads as absent and runs again; the GC deletes expired keys', async () => {
  const alice = await fresh('alice');
  const marker = `expired-${randomUUID()}`;
  const body = newPost(marker);
  const day = 24 * 3600_000;
  // A claim written a day and an hour ago whose request never finished: expired, not a 409.
  const stale = randomUUID();
  expect(await store().claim(alice.id, stale, requestHash(body), Date.now() - day - 3600_000)).toEqual({
    outcome: 'claimed',
  });
  expect(await store().find(alice.id, stale)).toBeNull();
  const ran = await send(alice, body, stale);
  expect(ran.status).toBe(201);
  expect(await postsWith(alice, marker)).toEqual([ran.body.createdId]);

  // A finished key a day later: absent on read, removed by the GC, and the key runs again.
  const key = randomUUID();
  const first = await send(alice, newPost(`${marker} b`), key);
  expect(first.status).toBe(201);
  expect(await store().find(alice.id, key, Date.now() + day + 60_000)).toBeNull();
  const report = await runGc(
    createSocialContext(server.services[0]!.runtime!),
    new Date(Date.now() + day + 60_000),
  );
  expect(report.removed.idempotencyKeys).toBeGreaterThanOrEqual(2);
  expect(await store().find(alice.id, key)).toBeNull();
  const again = await send(alice, newPost(`${marker} b`), key);
  expect(again.status).toBe(201);
  expect(again.body.createdId).not.toBe(first.body.createdId);
});
