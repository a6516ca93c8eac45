/**
 * Threads across servers (issue 23; docs/federation.md, "Threads"): two real Agora servers, A and
 * B (each a standalone server with its own database, the other reached by name through
 * FEDERATION_HOST_MAP), and C, a signing fake peer whose carol follows alice on A (so C holds
 * copies of alice's posts and receives what A relays). bob on B follows alice on A and alice
 * follows bob, so each server holds copies of the other's public posts.
 *
 * Replies and reactions, their edits and removals, travel both ways: made on the thread's server,
 * they reach every copy; made on a copy, they go to the thread's server, which checks them as a
 * local write, stores and counts them, notifies its user, and relays them (Announce) to the other
 * servers holding copies, never back to the author's own. What must not be stored is asserted on
 * the receiving server's stores and activity log, not on what it shows.
 */
import { randomUUID } from 'node:crypto';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import type { BusMessage } from '@agora/common/messaging';
import { planDeliveries } from '../../services/federation/src/delivery/plan';
import { waitFor, type TestServer } from '../harness/standalone';
import { api, bootPeerServer, fed, freePort, repos } from '../harness/two-servers';
import { registerActor, type Actor } from '../harness/actors';
import { json, startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { allStored } from '../harness/stored';

const A = 'social-a.test';
const B = 'social-b.test';
const C = 'social-c.test';
const CAROL = `@carol@${C}`;
const WAIT = 20_000;

let a: TestServer;
let b: TestServer;
let peerC: SigningPeer;
let alice: Actor;
let bob: Actor;
/** `reply.created` events on A, as its federation planner receives them (a queue of the test's own). */
const replyEventsOnA: BusMessage<{ replyId?: string }>[] = [];

type Item = Record<string, unknown> & { id: string };
type Json = Record<string, unknown>;

/** A's federation service context: its delivery planner. */
const fedA = () => fed(a);

/** An activity through POST /outbox; throws with the answer unless it is 201. */
async function send(s: TestServer, who: Actor, activity: Json) {
  const res = await api(s).post<{ createdId?: string; result?: Json; error?: string }>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 201)
    throw new Error(`outbox on ${s.config.DOMAIN}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const post = async (s: TestServer, who: Actor, content: string, extra: Json = {}) =>
  (await send(s, who, { type: 'Create', objectType: 'Post', to: '@public', object: { content }, ...extra }))
    .createdId!;
const reply = async (s: TestServer, who: Actor, to: string, content: string) =>
  (await send(s, who, { type: 'Reply', to, object: { content } })).createdId!;
const react = (s: TestServer, who: Actor, to: string, emoji: string) =>
  send(s, who, { type: 'React', to, object: { emoji } });

/** A post or reply as `who` reads it on `s`; throws unless 200. */
async function read(s: TestServer, who: Actor, id: string): Promise<Item> {
  const res = await api(s).get<Item>(`/posts/${encodeURIComponent(id)}`, { token: who.token });
  if (res.status !== 200) throw new Error(`GET /posts/${id} on ${s.config.DOMAIN}: ${res.status}`);
  return res.body;
}
/** A post's replies collection (`/replies`) or reactions (`/reacts`) on `s`; throws unless 200. */
async function listOf(s: TestServer, who: Actor, id: string, what: 'replies' | 'reacts'): Promise<Item[]> {
  const res = await api(s).get<{ orderedItems: Item[] }>(`/posts/${encodeURIComponent(id)}/${what}`, {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`GET /posts/${id}/${what} on ${s.config.DOMAIN}: ${res.status}`);
  return res.body.orderedItems;
}
const until = (check: () => Promise<boolean>) => waitFor(check, WAIT);
/** Waits until `who` on `s` can read `id` (a copy has arrived). */
const arrived = (s: TestServer, who: Actor, id: string) =>
  until(
    async () => (await api(s).get(`/posts/${encodeURIComponent(id)}`, { token: who.token })).status === 200,
  );
const counts = async (s: TestServer, who: Actor, id: string) => {
  const p = await read(s, who, id);
  return { replyCount: p.replyCount, reactCount: p.reactCount, reactSummary: p.reactSummary };
};

/** `who`'s notifications of a type on `s`. */
async function notes(s: TestServer, who: Actor, type: string): Promise<Item[]> {
  const res = await api(s).get<{ orderedItems: Item[] }>(`/notifications?types=${type}`, {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`notifications on ${s.config.DOMAIN}: ${res.status}`);
  return res.body.orderedItems;
}

/** Whether an activity (or the object, relayed or undone activity in it) is about `objectId`. */
function isAbout(act: unknown, objectId: string): boolean {
  if (typeof act !== 'object' || act === null) return false;
  const { object, to } = act as { object?: unknown; to?: unknown };
  if (to === objectId || object === objectId) return true;
  return (object as { id?: unknown } | null)?.id === objectId || isAbout(object, objectId);
}

/** The inbound activities `s` recorded about `objectId`. */
async function inboundAbout(s: TestServer, objectId: string): Promise<ActivityRecord[]> {
  const docs = await allStored<ActivityRecord & { _id: string }>(
    s.services[0]!.runtime!.db.engine,
    ACTIVITIES,
  );
  return docs.filter((d) => d.inbound && isAbout(JSON.parse(d.raw ?? '{}'), objectId));
}
/** Waits until `s` recorded an outcome for an inbound activity about `objectId`, and returns it. */
async function outcomeAbout(s: TestServer, objectId: string) {
  let found: ActivityRecord | undefined;
  await until(async () => {
    found = (await inboundAbout(s, objectId)).find((d) => d.inbound?.status !== 'accepted');
    return !!found;
  });
  return { status: found!.inbound!.status, reason: found!.inbound!.reason };
}

/** What C received: every activity A delivered to its inbox. */
const toC = () =>
  peerC.received
    .filter((r) => r.method === 'POST' && r.url === '/inbox')
    .map((r) => ({ activity: JSON.parse(r.body.toString()) as Json, headers: r.headers }));
/** Relays (Announce) C received whose relayed activity is `type` about `objectId`. */
const relaysToC = (type: string, objectId: string) =>
  toC().filter(({ activity }) => {
    const inner = activity.object as { type?: string } | undefined;
    return activity.type === 'Announce' && inner?.type === type && isAbout(inner, objectId);
  });

/** `who` on `s` follows `target`, and the target's server recorded the follower. */
async function follows(s: TestServer, who: Actor, target: Actor, on: TestServer) {
  await send(s, who, { type: 'Follow', target: target.id });
  await until(async () => (await repos(on).followers.ofUser(target.id)).some((f) => f.actorId === who.id));
}

beforeAll(async () => {
  peerC = await startSigningPeer(C, (req, res) =>
    req.method === 'POST' && req.url === '/inbox'
      ? res.writeHead(202).end()
      : json(res, 404, { error: 'Not found' }),
  );
  const [portA, portB] = [await freePort(), await freePort()];
  [a, b] = await Promise.all([
    bootPeerServer(A, portA, { [B]: portB, [C]: peerC.address }),
    bootPeerServer(B, portB, { [A]: portA, [C]: peerC.address }),
  ]);
  alice = await registerActor(api(a), 'alice');
  bob = await registerActor(api(b), 'bob');
  await follows(b, bob, alice, a);
  await follows(a, alice, bob, b);
  const follow = await peerC.send(`${a.url}/inbox`, {
    id: `http://${C}/activities/follow-alice`,
    type: 'Follow',
    actorId: CAROL,
    actor: { id: CAROL, inbox: `http://${C}/inbox` },
    object: alice.id,
  });
  expect(follow.status).toBe(202);
  await until(async () => (await repos(a).followers.ofUser(alice.id)).some((f) => f.actorId === CAROL));
  await a.services[0]!.runtime!.bus.subscribe<{ replyId?: string }>(
    'test.threads.replies',
    ['reply.created'],
    (m) => {
      replyEventsOnA.push(m);
      return Promise.resolve();
    },
  );
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await peerC?.close();
});

/** A public post of `who`'s on `s`, once `reader` can read its copy on `on`. */
async function copiedPost(s: TestServer, who: Actor, on: TestServer, reader: Actor, content: string) {
  const id = await post(s, who, `${content} ${randomUUID()}`);
  await arrived(on, reader, id);
  return id;
}

test("A → B: alice's reply on A reaches B's copy, threaded and counted there, and C's", async () => {
  const p = await copiedPost(a, alice, b, bob, 'thread on A');
  const r = await reply(a, alice, p, 'a first answer');
  await until(async () => (await listOf(b, bob, p, 'replies')).some((x) => x.id === r));
  expect((await listOf(b, bob, p, 'replies')).find((x) => x.id === r)).toMatchObject({
    actorId: alice.id,
    target: p,
    parent: p,
  });
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
  const stored = await repos(b).replies.byId(r);
  expect(stored).toMatchObject({ originDomain: A, server: `@${A}`, actorId: alice.id });
  expect(String(stored?.body)).toContain('a first answer');
  // C holds a copy too: it got alice's own Create, signed by A (not a relay).
  await until(() =>
    Promise.resolve(
      toC().some(({ activity }) => activity.type === 'Create' && (activity.object as Json).id === r),
    ),
  );
  const create = toC().find(({ activity }) => (activity.object as Json | undefined)?.id === r)!;
  expect(create.activity).toMatchObject({
    actorId: alice.id,
    object: { inReplyTo: p, target: p, attributedTo: alice.id },
  });
  expect(String(create.headers.signature)).toContain(`keyId="http://${A}/users/%40${A}#main-key"`);
});

test("bob replies from B's copy: A checks, stores, counts, notifies alice and relays to C, not back to B", async () => {
  const p = await copiedPost(a, alice, b, bob, 'answer me from B');
  const r = await reply(b, bob, p, 'hello from B');
  expect(r).toMatch(new RegExp(`^reply:[0-9a-f]{24}@${B}$`));
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  expect((await listOf(b, bob, p, 'replies')).map((x) => x.id)).toEqual([r]);

  await until(async () => (await listOf(a, alice, p, 'replies')).some((x) => x.id === r));
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
  expect(await repos(a).replies.byId(r)).toMatchObject({
    actorId: bob.id,
    target: p,
    parent: p,
    originDomain: B,
  });
  expect(await outcomeAbout(a, r)).toEqual({ status: 'processed' });
  await until(async () =>
    (await notes(a, alice, 'reply')).some((n) => n.actorId === bob.id && n.objectId === p),
  );

  // The thread's server relays it to C, signed by A as its server actor, with bob's reply inside.
  await until(() => Promise.resolve(relaysToC('Create', r).length > 0));
  const [relay] = relaysToC('Create', r);
  expect(relay!.activity).toMatchObject({
    type: 'Announce',
    actorId: `@${A}`,
    object: { type: 'Create', actorId: bob.id, object: { id: r, inReplyTo: p, attributedTo: bob.id } },
  });
  // Not back to B, which has it: given the reply's real event, A's planner plans C only.
  await until(() => Promise.resolve(replyEventsOnA.some((m) => m.payload.replyId === r)));
  const event = replyEventsOnA.find((m) => m.payload.replyId === r)!;
  expect(await planDeliveries(fedA(), event)).toBe(1);
  expect(await inboundAbout(b, r)).toEqual([]);
});

test('nested replies thread the same on both sides', async () => {
  const p = await copiedPost(a, alice, b, bob, 'a thread to nest');
  const r1 = await reply(b, bob, p, 'first level, from B');
  await until(async () => !!(await repos(a).replies.liveById(r1)));
  // alice answers bob's reply through A's copy of it; bob answers her (a second level) from B.
  const r2 = await reply(a, alice, r1, 'second level, from A');
  await until(async () => !!(await repos(b).replies.liveById(r2)));
  const r3 = await reply(b, bob, r2, 'joins the first level');
  await until(async () => !!(await repos(a).replies.liveById(r3)));
  for (const s of [a, b]) {
    expect(await repos(s).replies.byId(r2)).toMatchObject({ target: p, parent: r1 });
    expect(await repos(s).replies.byId(r3)).toMatchObject({ target: p, parent: r1 });
  }
  await until(async () => (await repos(b).replies.byId(r1))?.replyCount === 2);
  await until(async () => (await repos(a).replies.byId(r1))?.replyCount === 2);
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 3 });
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 3 });
  expect((await listOf(b, bob, p, 'replies')).map((x) => x.id)).toEqual([r1, r2, r3]);
  expect((await listOf(a, alice, p, 'replies')).map((x) => x.id)).toEqual([r1, r2, r3]);
  // bob hears on B that alice answered his reply.
  await until(async () =>
    (await notes(b, bob, 'reply')).some((n) => n.actorId === alice.id && n.objectId === p),
  );
});

test("B → A: alice replies and reacts on A's copy of bob's post; B checks, counts and notifies bob", async () => {
  const q = await copiedPost(b, bob, a, alice, 'thread on B');
  const r = await reply(a, alice, q, 'hello from A');
  await until(async () => (await listOf(b, bob, q, 'replies')).some((x) => x.id === r));
  expect(await counts(b, bob, q)).toMatchObject({ replyCount: 1 });
  expect(await counts(a, alice, q)).toMatchObject({ replyCount: 1 });
  await until(async () =>
    (await notes(b, bob, 'reply')).some((n) => n.actorId === alice.id && n.objectId === q),
  );

  await react(a, alice, q, '🔥');
  await until(async () => (await counts(b, bob, q)).reactCount === 1);
  expect(await counts(b, bob, q)).toMatchObject({ reactSummary: { '🔥': 1 } });
  expect((await listOf(b, bob, q, 'reacts')).map((x) => [x.actorId, x.emoji])).toEqual([[alice.id, '🔥']]);
  await until(async () =>
    (await notes(b, bob, 'react')).some((n) => n.actorId === alice.id && n.objectId === q),
  );

  await send(a, alice, { type: 'Undo', object: { type: 'React', to: q } });
  await until(async () => (await counts(b, bob, q)).reactCount === 0);
  expect(await listOf(b, bob, q, 'reacts')).toEqual([]);
  expect(await counts(a, alice, q)).toMatchObject({ reactCount: 0 });
});

test("reactions: alice's reaches B's copy; bob's from B's copy is set, changed and removed on A and C", async () => {
  const p = await copiedPost(a, alice, b, bob, 'react to me');
  await react(a, alice, p, '👍');
  await until(async () => (await counts(b, bob, p)).reactCount === 1);
  expect(await counts(b, bob, p)).toMatchObject({ reactSummary: { '👍': 1 } });

  await react(b, bob, p, '🎉');
  expect(await counts(b, bob, p)).toMatchObject({ reactCount: 2, reactSummary: { '👍': 1, '🎉': 1 } });
  await until(async () => (await counts(a, alice, p)).reactCount === 2);
  expect(await counts(a, alice, p)).toMatchObject({ reactSummary: { '👍': 1, '🎉': 1 } });
  const mine = await repos(b).reacts.mine(bob.id, p);
  expect(await repos(a).reacts.mine(bob.id, p)).toMatchObject({ id: mine!.id, emoji: '🎉' });
  await until(async () =>
    (await notes(a, alice, 'react')).some((n) => n.actorId === bob.id && n.objectId === p),
  );
  await until(() => Promise.resolve(relaysToC('React', p).length > 0));

  await react(b, bob, p, '🔥');
  await until(async () => (await repos(a).reacts.mine(bob.id, p))?.emoji === '🔥');
  expect(await counts(a, alice, p)).toEqual({
    replyCount: 0,
    reactCount: 2,
    reactSummary: { '👍': 1, '🔥': 1 },
  });

  await send(b, bob, { type: 'Undo', object: { type: 'React', to: p } });
  await until(async () => (await counts(a, alice, p)).reactCount === 1);
  expect(await repos(a).reacts.mine(bob.id, p)).toBeNull();
  await until(() => Promise.resolve(relaysToC('Undo', p).length > 0));

  await send(a, alice, { type: 'Undo', object: { type: 'React', to: p } });
  await until(async () => (await counts(b, bob, p)).reactCount === 0);

  // A reply is reacted on the same way: bob on B's copy of alice's reply, counted on A's reply.
  const r = await reply(a, alice, p, 'react to my reply');
  await until(async () => !!(await repos(b).replies.liveById(r)));
  await react(b, bob, r, '👀');
  await until(async () => (await repos(a).replies.byId(r))?.reactCount === 1);
  expect(await repos(a).replies.byId(r)).toMatchObject({ reactSummary: { '👀': 1 } });
  await until(async () =>
    (await notes(a, alice, 'react')).some((n) => n.actorId === bob.id && n.objectId === r),
  );
});

test('reply edits and deletes travel by their authors, both ways', async () => {
  const p = await copiedPost(a, alice, b, bob, 'edits and deletes');
  const fromB = await reply(b, bob, p, 'first draft from B');
  const fromA = await reply(a, alice, p, 'first draft from A');
  await until(
    async () => !!(await repos(a).replies.liveById(fromB)) && !!(await repos(b).replies.liveById(fromA)),
  );

  await send(b, bob, { type: 'Update', target: fromB, object: { content: 'edited on B' } });
  await send(a, alice, { type: 'Update', target: fromA, object: { content: 'edited on A' } });
  await until(async () => String((await repos(a).replies.byId(fromB))?.body).includes('edited on B'));
  await until(async () => String((await repos(b).replies.byId(fromA))?.body).includes('edited on A'));
  await until(() => Promise.resolve(relaysToC('Update', fromB).length > 0));

  await send(b, bob, { type: 'Delete', target: fromB });
  await send(a, alice, { type: 'Delete', target: fromA });
  await until(async () => !!(await repos(a).replies.byId(fromB))?.deletedAt);
  await until(async () => !!(await repos(b).replies.byId(fromA))?.deletedAt);
  for (const [s, who] of [
    [a, alice],
    [b, bob],
  ] as const) {
    expect(await listOf(s, who, p, 'replies')).toEqual([]);
    expect(await counts(s, who, p)).toMatchObject({ replyCount: 0 });
  }
  await until(() => Promise.resolve(relaysToC('Delete', fromB).length > 0));
});

describe('refusals', () => {
  test("a reply or reaction from B's copy that the post does not admit is refused by A, then withdrawn on B", async () => {
    const circle = (
      await send(a, alice, {
        type: 'Create',
        objectType: 'Circle',
        to: alice.id,
        object: { name: 'Repliers' },
      })
    ).createdId!;
    const p = await post(a, alice, `only my circle may answer ${randomUUID()}`, {
      canReply: circle,
      canReact: circle,
    });
    await arrived(b, bob, p);
    // B cannot know alice's circles: its copy lets bob try, and A, the thread's server, decides.
    const r = await reply(b, bob, p, 'may I?');
    // Its id from the answer: A's Reject may withdraw it on B before a read here.
    const reaction = (await react(b, bob, p, '🙋')).createdId!;
    expect(await outcomeAbout(a, r)).toEqual({
      status: 'rejected',
      reason: 'canReply: the post does not admit the author',
    });
    expect(await outcomeAbout(a, reaction)).toEqual({
      status: 'rejected',
      reason: 'canReact: the post does not admit the author',
    });
    expect(await repos(a).replies.byId(r)).toBeNull();
    expect(await repos(a).reacts.byId(reaction)).toBeNull();
    expect(await counts(a, alice, p)).toEqual({ replyCount: 0, reactCount: 0, reactSummary: {} });
    expect(await listOf(a, alice, p, 'replies')).toEqual([]);
    // A tells B (Reject), which withdraws what it stored: the thread reads the same on both.
    await until(async () => !!(await repos(b).replies.byId(r))?.deletedAt);
    await until(async () => (await repos(b).reacts.byId(reaction)) === null);
    expect(await counts(b, bob, p)).toEqual({ replyCount: 0, reactCount: 0, reactSummary: {} });
    expect(await listOf(b, bob, p, 'replies')).toEqual([]);
    expect(await outcomeAbout(b, r)).toEqual({ status: 'processed' });
  });

  test("a Reject is heard only from the thread's server, about this server's users", async () => {
    const p = await copiedPost(a, alice, b, bob, 'C tries to refuse');
    const r = await reply(b, bob, p, 'stays');
    await until(async () => !!(await repos(a).replies.liveById(r)));
    const reject = { id: `http://${C}/activities/reject-1`, type: 'Reject', actorId: `@${C}`, object: r };
    expect((await peerC.send(`${b.url}/inbox`, reject)).status).toBe(202);
    expect(await outcomeAbout(b, r)).toEqual({
      status: 'rejected',
      reason: 'only the server that owns the thread may refuse what is said in it',
    });
    expect(await repos(b).replies.liveById(r)).not.toBeNull();
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  });

  test('a reply to a post the replier may not see, or that does not exist, is refused: nothing stored', async () => {
    const circle = (
      await send(a, alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Inner' } })
    ).createdId!;
    const hidden = (
      await send(a, alice, { type: 'Create', objectType: 'Post', to: circle, object: { content: 'inner' } })
    ).createdId!;
    const create = (n: string, inReplyTo: string) => ({
      id: `http://${C}/activities/${n}`,
      type: 'Create',
      actorId: CAROL,
      actor: { id: CAROL, name: 'Carol' },
      object: { id: `reply:${n}@${C}`, type: 'Note', attributedTo: CAROL, inReplyTo, content: '<p>peek</p>' },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('hidden-1', hidden))).status).toBe(202);
    expect(await outcomeAbout(a, `reply:hidden-1@${C}`)).toEqual({
      status: 'rejected',
      reason: 'the author may not see what they answer',
    });
    expect(await repos(a).replies.byId(`reply:hidden-1@${C}`)).toBeNull();
    expect(await repos(a).posts.byId(hidden)).toMatchObject({ replyCount: 0 });

    const missing = `post:${'0'.repeat(24)}@${A}`;
    expect((await peerC.send(`${a.url}/inbox`, create('missing-1', missing))).status).toBe(202);
    expect(await outcomeAbout(a, `reply:missing-1@${C}`)).toEqual({
      status: 'ignored',
      reason: 'no post or reply with that id is held here',
    });
    expect(await repos(a).replies.byId(`reply:missing-1@${C}`)).toBeNull();
  });

  test("only the thread's server is heard about its thread: C's reply or relay into A's thread is refused by B", async () => {
    const p = await copiedPost(a, alice, b, bob, 'a thread C tries to write into');
    const note = (n: string) => ({
      id: `reply:${n}@${C}`,
      type: 'Note',
      attributedTo: CAROL,
      inReplyTo: p,
      content: '<p>straight to B</p>',
    });
    const direct = {
      id: `http://${C}/activities/direct-1`,
      type: 'Create',
      actorId: CAROL,
      object: note('direct-1'),
    };
    const relay = {
      id: `http://${C}/activities/relay-1`,
      type: 'Announce',
      actorId: `@${C}`,
      object: { type: 'Create', actorId: CAROL, object: note('relay-1') },
    };
    expect((await peerC.send(`${b.url}/inbox`, direct)).status).toBe(202);
    expect((await peerC.send(`${b.url}/inbox`, relay)).status).toBe(202);
    const refused = {
      status: 'rejected',
      reason: `only ${A}, which owns the thread, may tell this server about it`,
    };
    expect(await outcomeAbout(b, `reply:direct-1@${C}`)).toEqual(refused);
    expect(await outcomeAbout(b, `reply:relay-1@${C}`)).toEqual(refused);
    expect(await repos(b).replies.byId(`reply:direct-1@${C}`)).toBeNull();
    expect(await repos(b).replies.byId(`reply:relay-1@${C}`)).toBeNull();
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 0 });
    // And C cannot speak for B's users at all: the signature is refused at the door.
    const forged = { ...direct, id: `http://${C}/activities/forged-1`, actorId: bob.id };
    expect((await peerC.send(`${a.url}/inbox`, forged)).status).toBe(401);
  });

  test('a reply is applied once: the same activity again, or another activity with its id', async () => {
    const p = await copiedPost(a, alice, b, bob, 'said twice');
    const create = (n: string) => ({
      id: `http://${C}/activities/${n}`,
      type: 'Create',
      actorId: CAROL,
      object: {
        id: `reply:twice@${C}`,
        type: 'Note',
        attributedTo: CAROL,
        inReplyTo: p,
        content: '<p>twice</p>',
      },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('twice-1'))).status).toBe(202);
    expect(await peerC.send(`${a.url}/inbox`, create('twice-1'))).toEqual({
      status: 202,
      body: { accepted: true, duplicate: true },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('twice-2'))).status).toBe(202);
    await until(async () =>
      (await inboundAbout(a, `reply:twice@${C}`)).every((d) => d.inbound?.status !== 'accepted'),
    );
    const outcomes = (await inboundAbout(a, `reply:twice@${C}`)).map((d) => [d.remoteId, d.inbound?.status]);
    expect(outcomes.sort()).toEqual([
      [`http://${C}/activities/twice-1`, 'processed'],
      [`http://${C}/activities/twice-2`, 'ignored'],
    ]);
    expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
    // A relays carol's reply to B, which holds a copy of the post (C is its author's own server).
    await until(async () => !!(await repos(b).replies.liveById(`reply:twice@${C}`)));
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
    // Not back to C, its author's server: given the reply's real event, A's planner plans B only.
    await until(() => Promise.resolve(replyEventsOnA.some((m) => m.payload.replyId === `reply:twice@${C}`)));
    const event = replyEventsOnA.find((m) => m.payload.replyId === `reply:twice@${C}`)!;
    expect(await planDeliveries(fedA(), event)).toBe(1);
  });
});
