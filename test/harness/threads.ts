/**
 * The world of the cross-server thread tests (test/e2e/two-servers-threads*.test.ts; issue 23,
 * docs/federation.md, "Threads"): two real Agora servers, A and B, and C, a signing fake peer
 * whose carol follows alice on A (so C holds copies of alice's posts and receives what A relays).
 * bob on B follows alice on A and alice follows bob, so each server holds copies of the other's
 * public posts. Also the calls those tests make: write through the outbox, read posts, replies,
 * reactions and notifications, find what a server recorded about an object and what C received.
 * State is per test file (Jest loads this module afresh for each file).
 */
import { randomUUID } from 'node:crypto';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import type { BusMessage } from '@agora/common/messaging';
import { waitFor, type TestServer } from './standalone';
import { api, bootPeerServer, fed, freePort, repos } from './two-servers';
import { registerActor, type Actor } from './actors';
import { json, startSigningPeer, type SigningPeer } from './fake-peer';
import { allStored } from './stored';

export const A = 'social-a.test';
export const B = 'social-b.test';
export const C = 'social-c.test';
export const CAROL = `@carol@${C}`;
const WAIT = 20_000;

export interface ThreadsWorld {
  a: TestServer;
  b: TestServer;
  peerC: SigningPeer;
  alice: Actor;
  bob: Actor;
}
let world: ThreadsWorld | undefined;
const current = (): ThreadsWorld => {
  if (!world) throw new Error('bootThreads() has not run');
  return world;
};
/** `reply.created` events on A, as its federation planner receives them (a queue of the test's own). */
export const replyEventsOnA: BusMessage<{ replyId?: string }>[] = [];

export type Item = Record<string, unknown> & { id: string };
export type Json = Record<string, unknown>;

/** A's federation service context: its delivery planner. */
export const fedA = () => fed(current().a);

/** An activity through POST /outbox; throws with the answer unless it is 201. */
export async function send(s: TestServer, who: Actor, activity: Json) {
  const res = await api(s).post<{ createdId?: string; result?: Json; error?: string }>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 201)
    throw new Error(`outbox on ${s.config.DOMAIN}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
export const post = async (s: TestServer, who: Actor, content: string, extra: Json = {}) =>
  (await send(s, who, { type: 'Create', objectType: 'Post', to: '@public', object: { content }, ...extra }))
    .createdId!;
export const reply = async (s: TestServer, who: Actor, to: string, content: string) =>
  (await send(s, who, { type: 'Reply', to, object: { content } })).createdId!;
export const react = (s: TestServer, who: Actor, to: string, emoji: string) =>
  send(s, who, { type: 'React', to, object: { emoji } });

/** A post or reply as `who` reads it on `s`; throws unless 200. */
export async function read(s: TestServer, who: Actor, id: string): Promise<Item> {
  const res = await api(s).get<Item>(`/posts/${encodeURIComponent(id)}`, { token: who.token });
  if (res.status !== 200) throw new Error(`GET /posts/${id} on ${s.config.DOMAIN}: ${res.status}`);
  return res.body;
}
/** A post's replies collection (`/replies`) or reactions (`/reacts`) on `s`; throws unless 200. */
export async function listOf(
  s: TestServer,
  who: Actor,
  id: string,
  what: 'replies' | 'reacts',
): Promise<Item[]> {
  const res = await api(s).get<{ orderedItems: Item[] }>(`/posts/${encodeURIComponent(id)}/${what}`, {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`GET /posts/${id}/${what} on ${s.config.DOMAIN}: ${res.status}`);
  return res.body.orderedItems;
}
export const until = (check: () => Promise<boolean>) => waitFor(check, WAIT);
/** Waits until `who` on `s` can read `id` (a copy has arrived). */
export const arrived = (s: TestServer, who: Actor, id: string) =>
  until(
    async () => (await api(s).get(`/posts/${encodeURIComponent(id)}`, { token: who.token })).status === 200,
  );
export const counts = async (s: TestServer, who: Actor, id: string) => {
  const p = await read(s, who, id);
  return { replyCount: p.replyCount, reactCount: p.reactCount, reactSummary: p.reactSummary };
};

/** `who`'s notifications of a type on `s`. */
export async function notes(s: TestServer, who: Actor, type: string): Promise<Item[]> {
  const res = await api(s).get<{ orderedItems: Item[] }>(`/notifications?types=${type}`, {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`notifications on ${s.config.DOMAIN}: ${res.status}`);
  return res.body.orderedItems;
}

/** Whether an activity (or the object, relayed or undone activity in it) is about `objectId`. */
export function isAbout(act: unknown, objectId: string): boolean {
  if (typeof act !== 'object' || act === null) return false;
  const { object, to } = act as { object?: unknown; to?: unknown };
  if (to === objectId || object === objectId) return true;
  return (object as { id?: unknown } | null)?.id === objectId || isAbout(object, objectId);
}

/** The inbound activities `s` recorded about `objectId`. */
export async function inboundAbout(s: TestServer, objectId: string): Promise<ActivityRecord[]> {
  const docs = await allStored<ActivityRecord & { _id: string }>(
    s.services[0]!.runtime!.db.engine,
    ACTIVITIES,
  );
  return docs.filter((d) => d.inbound && isAbout(JSON.parse(d.raw ?? '{}'), objectId));
}
/** Waits until `s` recorded an outcome for an inbound activity about `objectId`, and returns it. */
export async function outcomeAbout(s: TestServer, objectId: string) {
  let found: ActivityRecord | undefined;
  await until(async () => {
    found = (await inboundAbout(s, objectId)).find((d) => d.inbound?.status !== 'accepted');
    return !!found;
  });
  return { status: found!.inbound!.status, reason: found!.inbound!.reason };
}

/** What C received: every activity A delivered to its inbox. */
export const toC = () =>
  current()
    .peerC.received.filter((r) => r.method === 'POST' && r.url === '/inbox')
    .map((r) => ({ activity: JSON.parse(r.body.toString()) as Json, headers: r.headers }));
/** Relays (Announce) C received whose relayed activity is `type` about `objectId`. */
export const relaysToC = (type: string, objectId: string) =>
  toC().filter(({ activity }) => {
    const inner = activity.object as { type?: string } | undefined;
    return activity.type === 'Announce' && inner?.type === type && isAbout(inner, objectId);
  });

/** `who` on `s` follows `target`, and the target's server recorded the follower. */
async function follows(s: TestServer, who: Actor, target: Actor, on: TestServer) {
  await send(s, who, { type: 'Follow', target: target.id });
  await until(async () => (await repos(on).followers.ofUser(target.id)).some((f) => f.actorId === who.id));
}

/** Boots A, B and C, registers alice (A) and bob (B), and makes the follows described above. */
export async function bootThreads(): Promise<ThreadsWorld> {
  const peerC = await startSigningPeer(C, (req, res) =>
    req.method === 'POST' && req.url === '/inbox'
      ? res.writeHead(202).end()
      : json(res, 404, { error: 'Not found' }),
  );
  const [portA, portB] = [await freePort(), await freePort()];
  const [a, b] = await Promise.all([
    bootPeerServer(A, portA, { [B]: portB, [C]: peerC.address }),
    bootPeerServer(B, portB, { [A]: portA, [C]: peerC.address }),
  ]);
  const alice = await registerActor(api(a), 'alice');
  const bob = await registerActor(api(b), 'bob');
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
  world = { a, b, peerC, alice, bob };
  return world;
}

export async function closeThreads(): Promise<void> {
  await world?.a.close();
  await world?.b.close();
  await world?.peerC.close();
}

/** A public post of `who`'s on `s`, once `reader` can read its copy on `on`. */
export async function copiedPost(s: TestServer, who: Actor, on: TestServer, reader: Actor, content: string) {
  const id = await post(s, who, `${content} ${randomUUID()}`);
  await arrived(on, reader, id);
  return id;
}
