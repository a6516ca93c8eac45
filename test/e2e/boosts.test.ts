/**
 * Boosts from here (ADR 0024, docs/federation.md "ActivityPub"): `POST /outbox` with
 * `{ type: 'Announce', object: <post id> }` shares a public post the booster can read as a public
 * post by the booster quoting the original (`shareOf` the original, `url` the original's), in
 * the timelines of the booster's followers; a second boost answers the share already made; a
 * post that is not readable, not public or not there is refused with nothing stored; Undo of the
 * share and Delete of it both remove it. A server of this API following the booster gets the
 * share as it gets any public post of hers: a Create of it (and a Delete when it goes).
 */
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';

type Body = {
  createdId?: string;
  result?: Record<string, unknown>;
  activity?: { id: string };
  error?: string;
};
type Post = Record<string, unknown> & { id: string; body?: string; url?: string; shareOf?: string };

let server: TestServer;
let peer: SigningPeer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;
let seq = 0;

/** POST /outbox with a fresh Idempotency-Key, so repeated bodies reach the handler. */
const send = (who: Actor, activity: unknown) =>
  api.post<Body>('/outbox', activity, { token: who.token, headers: { 'idempotency-key': `boost-${++seq}` } });
const must = async (who: Actor, activity: Record<string, unknown>) => {
  const res = await send(who, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const post = async (who: Actor, content: string, to = '@public') =>
  (await must(who, { type: 'Create', objectType: 'Post', object: { content }, to })).createdId!;
const read = (id: string, who?: Actor) =>
  api.get<Post>(`/posts/${encodeURIComponent(id)}`, who ? { token: who.token } : {});
const followingOf = async (who: Actor) =>
  (await api.get<{ user: { following: string } }>('/auth/me', { token: who.token })).body.user.following;
const timeline = async (who: Actor) => {
  const res = await api.get<{ orderedItems: Post[] }>(
    `/circles/${encodeURIComponent(await followingOf(who))}/posts`,
    { token: who.token },
  );
  return res.body.orderedItems;
};
const postCount = async (who: Actor) =>
  (await server.services[0]!.runtime!.repos.users.findById(who.id))!.postCount;

beforeAll(async () => {
  peer = await startSigningPeer('peer.test', (_req, res) => res.writeHead(202).end());
  server = await bootServer({ ...peer.serverEnv, FEDERATION_DELIVERY_DELAY_SCALE: '0.001' });
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  carol = await registerActor(api, 'carol');
  dave = await registerActor(api, 'dave');
  // bob follows alice: alice's posts (her shares too) reach bob's Following timeline.
  await must(bob, { type: 'Follow', object: alice.id });
});

afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test("a boost is a public post by the booster quoting the original, in her followers' timelines", async () => {
  const original = await post(carol, 'carol says **hello**');
  const before = await postCount(alice);
  const res = await send(alice, { type: 'Announce', object: original });
  expect(res.status).toBe(201);
  const shareId = res.body.createdId!;
  expect(shareId).toMatch(/^post:/);
  expect(res.body.result).toMatchObject({
    id: shareId,
    actorId: alice.id,
    to: '@public',
    shareOf: original,
    url: (await read(original)).body.url,
  });
  expect(await postCount(alice)).toBe(before + 1);

  // Anyone reads it; its body links to the original's author and quotes the original.
  const share = (await read(shareId)).body;
  expect(share).toMatchObject({ id: shareId, shareOf: original });
  expect(share.body).toContain(carol.id);
  expect(share.body).toContain('<blockquote><p>carol says <strong>hello</strong></p>');
  await expect(timeline(bob).then((items) => items.map((p) => p.id))).resolves.toContain(shareId);

  // bob boosting alice's share boosts carol's post.
  const again = await send(bob, { type: 'Announce', object: shareId });
  expect(again.status).toBe(201);
  expect(again.body.result).toMatchObject({ actorId: bob.id, shareOf: original });
});

test('boosting the same post again answers 200 with the share already made, and stores nothing', async () => {
  const original = await post(carol, 'shared once');
  const first = await must(alice, { type: 'Announce', object: original });
  const count = await postCount(alice);
  const again = await send(alice, { type: 'Announce', object: original });
  expect(again.status).toBe(200);
  expect(again.body.createdId).toBe(first.createdId);
  expect(again.body.result).toMatchObject({ id: first.createdId, shareOf: original });
  expect(await postCount(alice)).toBe(count);
  expect((await timeline(bob)).filter((p) => p.shareOf === original)).toHaveLength(1);
});

test('what cannot be shared is refused with a clear 4xx and nothing stored', async () => {
  const circle = (await must(dave, { type: 'Create', objectType: 'Circle', object: { name: 'close' } }))
    .createdId!;
  await must(dave, { type: 'Add', object: alice.id, target: circle });
  const toCircle = await post(dave, 'for my circle', circle);
  const otherCircle = (await must(dave, { type: 'Create', objectType: 'Circle', object: { name: 'far' } }))
    .createdId!;
  const hidden = await post(dave, 'not for alice', otherCircle);
  const original = await post(carol, 'a post with a reply');
  const reply = (await must(carol, { type: 'Reply', to: original, object: { content: 'a reply' } }))
    .createdId!;
  const count = await postCount(alice);

  const cases: Array<[unknown, number, RegExp]> = [
    [toCircle, 400, /public/],
    [hidden, 404, /not found/i],
    [`post:${'0'.repeat(24)}@${new URL(server.url).hostname}`, 404, /not found/i],
    ['post:000@elsewhere.example', 404, /not found/i],
    [reply, 400, /object/],
    [circle, 400, /object/],
    [undefined, 400, /object/],
    [{ id: original }, 400, /object/],
  ];
  for (const [object, status, error] of cases) {
    const res = await send(alice, { type: 'Announce', object });
    expect([object, res.status]).toEqual([object, status]);
    expect(res.body.error).toMatch(error);
  }
  // Nobody signed in boosts nothing.
  expect((await api.post<Body>('/outbox', { type: 'Announce', object: original })).status).toBe(401);
  expect(await postCount(alice)).toBe(count);
});

test('Undo of the share removes it; so does its Delete; another user cannot undo it', async () => {
  const original = await post(carol, 'boost me twice');
  const shareId = (await must(alice, { type: 'Announce', object: original })).createdId!;
  expect((await timeline(bob)).map((p) => p.id)).toContain(shareId);

  const notHers = await send(bob, { type: 'Undo', object: shareId });
  expect(notHers.status).toBe(404);
  expect((await read(shareId)).status).toBe(200);

  const undone = await send(alice, { type: 'Undo', object: shareId });
  expect(undone.status).toBe(201);
  expect((await read(shareId)).status).toBe(404);
  expect((await timeline(bob)).map((p) => p.id)).not.toContain(shareId);

  // Boosting again after the Undo makes a new share; deleting it removes it too.
  const again = await send(alice, { type: 'Announce', object: original });
  expect(again.status).toBe(201);
  const second = again.body.createdId!;
  expect(second).not.toBe(shareId);
  expect((await timeline(bob)).map((p) => p.id)).toContain(second);
  await must(alice, { type: 'Delete', target: second });
  expect((await read(second)).status).toBe(404);
  expect((await timeline(bob)).map((p) => p.id)).not.toContain(second);

  // The Announce inline, or the Announce activity by its id, undo it as well.
  const third = (await must(alice, { type: 'Announce', object: original })).createdId!;
  await must(alice, { type: 'Undo', object: { type: 'Announce', object: original } });
  expect((await read(third)).status).toBe(404);
  const fourth = await must(alice, { type: 'Announce', object: original });
  expect(fourth.createdId).not.toBe(third);
  await must(alice, { type: 'Undo', object: fourth.activity!.id });
  expect((await read(fourth.createdId!)).status).toBe(404);
  expect((await timeline(bob)).filter((p) => p.shareOf === original)).toEqual([]);

  // Undo of a boost that is gone, or of a post that is not a share, is 404.
  expect((await send(alice, { type: 'Undo', object: second })).status).toBe(404);
  const own = await post(alice, 'not a share');
  expect((await send(alice, { type: 'Undo', object: own })).status).toBe(404);
  expect((await read(own)).status).toBe(200);
  // An inline Undo of an Announce the user never made is acknowledged and ignored, as before.
  const none = await send(alice, { type: 'Undo', object: { type: 'Announce', object: own } });
  expect([none.status, none.body.result]).toEqual([201, { status: 'ignored', type: 'Announce' }]);
});

test('boosted and undone twenty times, a post is boosted again; only one share of it is live, and racing boosts make one', async () => {
  const original = await post(carol, 'boosted on and off');
  const made = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const shareId = (await must(alice, { type: 'Announce', object: original })).createdId!;
    made.add(shareId);
    await must(alice, { type: 'Undo', object: shareId });
  }
  // Every share had an id (and an Announce id) of its own.
  expect(made.size).toBe(20);
  const again = await send(alice, { type: 'Announce', object: original });
  expect(again.status).toBe(201);
  expect(made.has(again.body.createdId!)).toBe(false);
  expect((await read(again.body.createdId!)).body).toMatchObject({ shareOf: original, actorId: alice.id });
  const live = (await timeline(bob)).filter((p) => p.shareOf === original && p.actorId === alice.id);
  expect(live.map((p) => p.id)).toEqual([again.body.createdId]);
  await must(alice, { type: 'Undo', object: again.body.createdId });

  // Three boosts at once: one share, the others answered with it.
  const racing = await Promise.all([1, 2, 3].map(() => send(alice, { type: 'Announce', object: original })));
  expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 201]);
  expect(new Set(racing.map((r) => r.body.createdId)).size).toBe(1);
  expect((await timeline(bob)).filter((p) => p.shareOf === original)).toHaveLength(1);
});

test('a share is not edited (it quotes the original as it was)', async () => {
  const original = await post(carol, 'as it was');
  const shareId = (await must(alice, { type: 'Announce', object: original })).createdId!;
  const res = await send(alice, { type: 'Update', target: shareId, object: { content: 'changed' } });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatch(/share/);
  expect((await read(shareId)).body.body).toContain('as it was');
});

test('a server of this API following alice gets her share as a Create of her public post, and its Delete', async () => {
  const follow = `http://peer.test/activities/follow-alice`;
  const followed = await peer.send(`${server.url}/inbox`, {
    id: follow,
    type: 'Follow',
    actorId: '@erin@peer.test',
    actor: { id: '@erin@peer.test', inbox: 'http://peer.test/inbox' },
    object: alice.id,
  });
  expect(followed.status).toBe(202);
  await waitFor(
    async () => (await server.services[0]!.runtime!.repos.followers.ofUser(alice.id)).length === 1,
    20_000,
  );
  const original = await post(carol, 'for the other server too');
  const originalUrl = (await read(original)).body.url;
  const shareId = (await must(alice, { type: 'Announce', object: original })).createdId!;
  type Sent = { type: string; actorId?: string; object?: Record<string, unknown> | string };
  const sent = () =>
    peer.received
      .filter((r) => r.method === 'POST' && r.url === '/inbox')
      .map((r) => JSON.parse(r.body.toString()) as Sent);
  const about = (a: Sent) => (typeof a.object === 'string' ? a.object : a.object?.id) === shareId;
  await waitFor(() => Promise.resolve(sent().some((a) => a.type === 'Create' && about(a))), 20_000);
  const create = sent().find((a) => a.type === 'Create' && about(a))!;
  expect(create).toMatchObject({
    actorId: alice.id,
    object: { id: shareId, type: 'Note', attributedTo: alice.id, url: originalUrl, shareOf: original },
  });
  expect(String((create.object as { content: string }).content)).toContain('for the other server too');
  // No Announce: the spec's wire has no boosts.
  expect(sent().some((a) => a.type === 'Announce' && about(a))).toBe(false);

  await must(alice, { type: 'Undo', object: shareId });
  await waitFor(() => Promise.resolve(sent().some((a) => a.type === 'Delete' && about(a))), 20_000);
});

test("a share mentions no one: the handles it quotes are the original's", async () => {
  const domain = alice.id.split('@')[2]!;
  type Note = { objectId: string };
  const mentions = async () =>
    (await api.get<{ orderedItems: Note[] }>('/notifications?types=mention', { token: dave.token })).body
      .orderedItems;
  const original = await post(carol, `hello @dave@${domain}`);
  await waitFor(async () => (await mentions()).some((n) => n.objectId === original), 20_000);
  const shareId = (await must(alice, { type: 'Announce', object: original })).createdId!;
  // A later post of alice's that does mention dave: once it is notified, the share was handled.
  const later = await post(alice, `and now @dave@${domain}`);
  await waitFor(async () => (await mentions()).some((n) => n.objectId === later), 20_000);
  expect((await mentions()).map((n) => n.objectId)).not.toContain(shareId);
});
