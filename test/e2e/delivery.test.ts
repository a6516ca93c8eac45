/**
 * Outbound delivery (decisions.md §6): a remote actor follows a local user through the inbox;
 * the user's public posts are then delivered to the follower's inbox, signed with the server key
 * (verifiable with the key this server publishes); circle-only posts are not. Transient failures
 * are retried with backoff, permanent ones are dead-lettered after one attempt, and Undo Follow
 * stops deliveries.
 *
 * "Nothing was sent" is never a sleep followed by a look at the peer: it is asserted on recorded
 * state (the planner's verdict on the real event, the dead-letter queue, the circuit breaker,
 * the inbound activity's status), which does not depend on how busy the machine is.
 */
import { memoryReplayGuard, verifyRequest } from '@agora/common/federation';
import type { BusMessage } from '@agora/common/messaging';
import { planDeliveries } from '../../services/federation/src/delivery/plan';
import { deliver } from '../../services/federation/src/delivery/worker';
import type { DeliveryJob } from '../../services/federation/src/delivery/job';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { json, startSigningPeer, type Received, type SigningPeer } from '../harness/fake-peer';
import { createFederationContext } from '../../services/federation/src/context';

const PEER = 'peer.test';
const BOB = `@bob@${PEER}`;

let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let adminToken: string;
/** Every `post.created` event, as the federation planner receives it (a queue of the test's own). */
const postEvents: BusMessage<{ postId?: string }>[] = [];
/** How the peer's inbox answers the nth delivery (1-based, this one included) of a post id. */
let answer: (postId: string, nth: number) => { status: number; headers?: Record<string, string> } = () => ({
  status: 202,
});

const deliveries = () => peer.received.filter((r) => r.method === 'POST' && r.url === '/inbox');
const activityOf = (r: Received) => JSON.parse(r.body.toString()) as { type: string; object?: unknown };
const postIdOf = (r: Received) => {
  const { object } = activityOf(r);
  return typeof object === 'string' ? object : (object as { id?: string } | undefined)?.id;
};
const attemptsFor = (postId: string) => deliveries().filter((r) => postIdOf(r) === postId);

async function fromPeer(activity: Record<string, unknown>) {
  expect((await peer.send(`${server.url}/inbox`, activity)).status).toBe(202);
}

const rt = () => server.services[0]!.runtime!;
/** The federation service's context: its planner, its delivery worker and their circuit breaker. */
const fed = () => {
  const service = server.services.find((s) => s.name === 'federation');
  if (!service?.runtime) throw new Error('no federation service in the standalone wiring');
  return createFederationContext(service.runtime);
};
/** The `post.created` event of a post, once the bus has routed it. */
async function eventOf(postId: string): Promise<BusMessage<{ postId?: string }>> {
  await waitFor(() => Promise.resolve(postEvents.some((m) => m.payload.postId === postId)), 10_000);
  return postEvents.find((m) => m.payload.postId === postId)!;
}
/** Where the processing of an inbound activity stands (admin API: the activity log). */
async function inboundStatus(type: string, remoteId: string): Promise<string | undefined> {
  const q = new URLSearchParams({ type, actorId: BOB });
  const res = await api.get<{ orderedItems: Array<{ remoteId?: string; inbound?: { status: string } }> }>(
    `/admin/activities?${q.toString()}`,
    { token: adminToken },
  );
  if (res.status !== 200) throw new Error(`admin/activities: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.find((a) => a.remoteId === remoteId)?.inbound?.status;
}
const processed = (type: string, remoteId: string) =>
  waitFor(async () => (await inboundStatus(type, remoteId)) === 'processed', 20_000);

async function post(to: string, content: string): Promise<string> {
  const res = await outbox(api, alice, { type: 'Create', objectType: 'Post', to, object: { content } });
  expect(res.status).toBe(201);
  return res.body.createdId!;
}

const follow = { type: 'Follow', actorId: BOB, actor: { id: BOB, inbox: `http://${PEER}/inbox` } };

beforeAll(async () => {
  peer = await startSigningPeer(PEER, (req, res) => {
    if (req.method === 'POST' && req.url === '/inbox') {
      const id = postIdOf(req) ?? '';
      const { status, headers } = answer(id, attemptsFor(id).length);
      return res.writeHead(status, headers).end();
    }
    json(res, 404, { error: 'Not found' });
  });
  server = await bootServer({ ...peer.serverEnv, FEDERATION_DELIVERY_DELAY_SCALE: '0.001' });
  api = client(server.url);
  await rt().bus.subscribe<{ postId?: string }>('test.delivery.posts', ['post.created'], (msg) => {
    postEvents.push(msg);
    return Promise.resolve();
  });
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
  adminToken = login.body.token;
  alice = await registerActor(api, 'alice');
  await fromPeer({ ...follow, id: `http://${PEER}/activities/follow-1`, object: alice.id });
  await processed('Follow', `http://${PEER}/activities/follow-1`);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test("a public post reaches the follower's inbox, signed with the key this server publishes", async () => {
  const circle = (
    await outbox(api, alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Inner' },
    })
  ).body.createdId!;
  const hidden = await post(circle, 'circle only');
  const shown = await post('@public', 'hello *fediverse*');
  await waitFor(() => Promise.resolve(attemptsFor(shown).length === 1), 10_000);
  // The planner, given the circle post's own event, plans no delivery at all (and none was sent).
  expect(await planDeliveries(fed(), await eventOf(hidden))).toBe(0);
  expect(attemptsFor(hidden)).toEqual([]);

  const [delivery] = attemptsFor(shown);
  const activity = JSON.parse(delivery!.body.toString()) as Record<string, unknown>;
  expect(activity).toMatchObject({
    type: 'Create',
    actorId: alice.id,
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    object: { id: shown, type: 'Note', attributedTo: alice.id },
  });
  expect(String((activity.object as { content: string }).content)).toContain('<em>fediverse</em>');
  const actor = await api.get<{ item: { publicKey: { id: string; publicKeyPem: string } } }>(
    `/users/${encodeURIComponent('@social.test')}`,
  );
  const verified = await verifyRequest({
    method: 'POST',
    path: delivery!.url,
    headers: delivery!.headers,
    rawBody: delivery!.body,
    claimedActor: alice.id,
    resolveKey: (keyId) => {
      expect(keyId).toBe(actor.body.item.publicKey.id);
      return Promise.resolve({
        publicKeyPem: actor.body.item.publicKey.publicKeyPem,
        ownerDomain: 'social.test',
      });
    },
    replay: memoryReplayGuard(),
  });
  expect(verified.signerDomain).toBe('social.test');
});

test('transient failures are retried (Retry-After honoured) until delivered', async () => {
  const at: number[] = [];
  answer = (_id, nth) => {
    at.push(Date.now());
    if (nth === 1) return { status: 503, headers: { 'retry-after': '2' } };
    return nth === 2 ? { status: 429 } : { status: 202 };
  };
  const id = await post('@public', 'third time lucky');
  await waitFor(() => Promise.resolve(attemptsFor(id).length === 3), 15_000);
  // The receiver asked for two seconds; the backoff alone (scaled down here) would be shorter.
  expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1900);
  expect(attemptsFor(id)).toHaveLength(3);
  // The success was recorded: the domain's failures are cleared and nothing went to dead letters.
  expect(await fed().federation.breaker.check(PEER)).toEqual({ open: false });
  expect(await fed().bus.drainDead('federation.deliver')).toEqual([]);
  // Each attempt is signed afresh (a resent signature would be refused as a replay).
  const signatures = new Set(attemptsFor(id).map((r) => String(r.headers.signature)));
  expect(signatures.size).toBe(3);
});

test('a permanent refusal is tried once and recorded dead', async () => {
  answer = () => ({ status: 410 });
  const id = await post('@public', 'gone for good');
  await waitFor(() => Promise.resolve(attemptsFor(id).length === 1), 10_000);
  const deadFor = async () =>
    (await rt().repos.parkedDeliveries.deadOf(PEER, 100)).filter((r) => r.objectKey === id);
  await waitFor(async () => (await deadFor()).length === 1, 10_000);
  expect(await deadFor()).toEqual([
    expect.objectContaining({ state: 'dead', attempts: 1, lastError: 'refused for good: http_410' }),
  ]);
  // Dead is final: nothing is held for it, and the one attempt is all there will be.
  expect(await rt().repos.parkedDeliveries.isHeld(PEER, id)).toBe(false);
  expect(attemptsFor(id)).toHaveLength(1);
});

test('an edit is delivered as Update; leaving the public is delivered as Delete', async () => {
  answer = () => ({ status: 202 });
  const id = await post('@public', 'to be changed');
  await waitFor(() => Promise.resolve(attemptsFor(id).length === 1), 10_000);
  await outbox(api, alice, { type: 'Update', target: id, object: { content: 'changed' } });
  await waitFor(() => Promise.resolve(attemptsFor(id).length === 2), 10_000);
  const update = activityOf(attemptsFor(id)[1]!);
  expect(update).toMatchObject({ type: 'Update', object: { id, type: 'Note' } });
  expect(String((update.object as { content: string }).content)).toContain('changed');
  await outbox(api, alice, { type: 'Update', target: id, object: { to: alice.id } });
  await waitFor(() => Promise.resolve(attemptsFor(id).length === 3), 10_000);
  expect(activityOf(attemptsFor(id)[2]!)).toMatchObject({ type: 'Delete', object: id });
});

test("following a remote user sends Follow to that user's server, and unfollowing sends Undo", async () => {
  answer = () => ({ status: 202 });
  const carol = `@carol@${PEER}`;
  expect((await outbox(api, alice, { type: 'Follow', object: carol })).status).toBe(201);
  await waitFor(() => Promise.resolve(attemptsFor(carol).length === 1), 10_000);
  expect(activityOf(attemptsFor(carol)[0]!)).toMatchObject({
    type: 'Follow',
    actorId: alice.id,
    object: carol,
  });
  expect((await outbox(api, alice, { type: 'Unfollow', object: carol })).status).toBe(201);
  await waitFor(() => Promise.resolve(deliveries().some((r) => activityOf(r).type === 'Undo')), 10_000);
  const undo = deliveries().find((r) => activityOf(r).type === 'Undo')!;
  expect(activityOf(undo)).toMatchObject({ actorId: alice.id, object: { type: 'Follow', object: carol } });
});

test('Undo Follow stops deliveries', async () => {
  answer = () => ({ status: 202 });
  await fromPeer({
    id: `http://${PEER}/activities/undo-1`,
    type: 'Undo',
    actorId: BOB,
    object: { ...follow, object: alice.id },
  });
  await processed('Undo', `http://${PEER}/activities/undo-1`);
  // alice has no remote follower left: her next public post plans no delivery.
  const id = await post('@public', 'after undo');
  expect(await planDeliveries(fed(), await eventOf(id))).toBe(0);
  expect(attemptsFor(id)).toEqual([]);
});

test('a domain that keeps failing trips its circuit: its jobs are held, not sent', async () => {
  await fromPeer({ ...follow, id: `http://${PEER}/activities/follow-2`, object: alice.id });
  await processed('Follow', `http://${PEER}/activities/follow-2`);
  answer = () => ({ status: 503 });
  const failing = await post('@public', 'failing');
  // Five transient failures in a row for the domain (retries at least a second apart) open its
  // circuit: the breaker records it, and the worker then holds the domain's jobs. The failing
  // post's delivery is held with its five sends counted (probes of the open circuit are not)...
  const breaker = fed().federation.breaker;
  await waitFor(async () => (await breaker.check(PEER)).open, 30_000);
  const [row] = (await rt().repos.parkedDeliveries.heldOf(PEER, 100)).filter((r) => r.objectKey === failing);
  expect(row).toMatchObject({ state: 'held', attempts: 5, lastError: 'http_503' });
  expect(attemptsFor(failing).length).toBeGreaterThanOrEqual(5);
  // ...new jobs included: a job for a new post is held in the database without a request (the
  // drainer's probe resends only the oldest held delivery, the failing post's).
  const held = await post('@public', 'held back');
  const job: DeliveryJob = {
    inbox: `http://${PEER}/inbox`,
    domain: PEER,
    activity: { id: `${held}#create`, type: 'Create', object: { id: held } },
    attempt: 1,
  };
  await deliver(fed(), { ...(await eventOf(held)), name: 'federation.deliver', payload: job });
  expect(await rt().repos.parkedDeliveries.isHeld(PEER, held)).toBe(true);
  expect(attemptsFor(held)).toEqual([]);
}, 60_000);

test('held jobs keep the order their writes happened in, not the order they were planned in', async () => {
  // The circuit is still open (the test above): both posts' jobs are held. Their place is the
  // time of the write's event, carried in the job (the planner runs several events at once).
  const first = await post('@public', 'written first');
  const second = await post('@public', 'written second');
  const held = rt().repos.parkedDeliveries;
  await waitFor(async () => (await held.isHeld(PEER, first)) && (await held.isHeld(PEER, second)), 10_000);
  const rows = (await held.heldOf(PEER, 100)).filter((r) => r.objectKey === first || r.objectKey === second);
  expect(rows.map((r) => r.objectKey)).toEqual([first, second]);
  expect(rows[0]!.seq).toBe((await eventOf(first)).publishedAt);
  expect((JSON.parse(rows[0]!.job) as DeliveryJob).writtenAt).toBe((await eventOf(first)).publishedAt);

  // Two jobs planned in the reverse order of their writes are held in the order of the writes.
  const job = (n: string, writtenAt: string): DeliveryJob => ({
    inbox: `http://${PEER}/inbox`,
    domain: PEER,
    activity: {
      id: `post:order${n}@${PEER}#create`,
      type: 'Create',
      object: { id: `post:order${n}@${PEER}` },
    },
    attempt: 1,
    writtenAt,
  });
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(base + ms).toISOString();
  const message = (payload: DeliveryJob, publishedAt: string) => ({
    id: `${payload.activity.id}>${payload.inbox}`,
    name: 'federation.deliver',
    payload,
    headers: {},
    attempt: 1,
    publishedAt,
  });
  await deliver(fed(), message(job('b', at(2)), at(3)));
  await deliver(fed(), message(job('a', at(1)), at(4)));
  const order = (await held.heldOf(PEER, 100)).map((r) => r.objectKey).filter((k) => k.includes(':order'));
  expect(order).toEqual([`post:ordera@${PEER}`, `post:orderb@${PEER}`]);
}, 60_000);
