/**
 * Audiences between two real Agora servers (issue 23; docs/federation.md, "Audiences"), each way:
 * a post to a circle holding a user of the other server reaches that user only (the other users
 * of that server get 404 in every lookup mode, in timelines and in search; a third server in no
 * audience, a fake peer that follows the author, receives nothing); a circle holding the other
 * server reaches all its users; a member removed stops reading and receiving at once, and reads
 * again once added back; edits, audience changes and deletes follow; an account deleted on one
 * server leaves the other's circles; a profile change refreshes the copies. Polls of circle posts
 * (push held by the circuit breaker) are in the last block, on a pair of servers polling each
 * other. Absence is proven on recorded state: the planner's targets on the origin, and what the
 * other server stored (its posts and its activity log), after a later delivery went through.
 */
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import {
  activityLog,
  api,
  bootPeerServer,
  freePort,
  hiddenEverywhere,
  inboundNaming,
  plannedFor,
  post,
  read,
  readable as readableOn,
  repos,
  send,
  bootTriangle,
  type Peers,
  type Triangle,
} from '../harness/two-servers';
import type { SigningPeer } from '../harness/fake-peer';

const A = 'aud-a.test';
const B = 'aud-b.test';
const C = 'aud-c.test';
const WAIT = 20_000;

let a: TestServer;
let b: TestServer;
let peerC: SigningPeer;
let alice: Actor;
let amy: Actor;
let bob: Actor;
let carol: Actor;
let triangle: Triangle | undefined;

/** Polls off unless a test turns them on (the last block). */
const boot = (domain: string, port: number, peers: Peers, env: Record<string, string> = {}) =>
  bootPeerServer(domain, port, peers, { FEDERATION_POLL_SECONDS: '0', ...env });

async function circle(s: TestServer, owner: Actor, members: string[], name = 'Friends'): Promise<string> {
  const body = await send(s, owner, { type: 'Create', objectType: 'Circle', object: { name, members } });
  return body.createdId!;
}

const readable = (s: TestServer, who: Actor, id: string) => readableOn(s, who, id, WAIT);
const unreadable = (s: TestServer, who: Actor, id: string) =>
  waitFor(async () => (await read(s, who, id)).status === 404, WAIT);

/** What a server stored of a post: its copy, and how many inbound activities name it. */
async function traceOf(s: TestServer, id: string) {
  const copy = await repos(s).posts.byId(id);
  return { copy, activities: (await inboundNaming(s, id)).length };
}

async function timelineOf(s: TestServer, who: Actor): Promise<string[]> {
  const me = await api(s).get<{ user: { following: string } }>('/auth/me', { token: who.token });
  const res = await api(s).get<{ orderedItems: Array<{ id: string }> }>(
    `/circles/${encodeURIComponent(me.body.user.following)}/posts`,
    { token: who.token },
  );
  if (res.status !== 200) throw new Error(`timeline: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
}

async function search(s: TestServer, who: Actor, q: string): Promise<string[]> {
  const res = await api(s).get<{ orderedItems: Array<{ id: string }> }>(`/search?q=${q}&type=posts`, {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
}

/** `who` on `from` follows `target` on `to`, and `to` has recorded it. */
async function follow(from: TestServer, who: Actor, to: TestServer, target: Actor) {
  const res = await api(from).post(
    '/outbox',
    { type: 'Follow', target: target.id },
    { token: who.token, headers: { 'idempotency-key': randomUUID() } },
  );
  if (res.status !== 201) throw new Error(`Follow: ${res.status} ${JSON.stringify(res.body)}`);
  await waitFor(() => repos(to).followers.isFollower(target.id, who.id), WAIT);
}

/** The ids of the members of a circle, as stored. */
async function membersOf(s: TestServer, circleId: string): Promise<string[]> {
  return ((await repos(s).circles.byId(circleId))?.members ?? []).map((m) => m.id).sort();
}

beforeAll(async () => {
  triangle = await bootTriangle(A, B, C);
  ({ a, b, peerC, alice, amy, bob, carol } = triangle);
  // cat on C follows alice: public posts of hers go to C, so C is a server that would receive
  // anything wrongly sent to followers.
  const followed = await peerC.send(`${a.url}/inbox`, {
    id: `http://${C}/activities/follow-alice`,
    type: 'Follow',
    actorId: `@cat@${C}`,
    actor: { id: `@cat@${C}`, inbox: `http://${C}/inbox` },
    object: alice.id,
  });
  expect(followed.status).toBe(202);
  await waitFor(() => repos(a).followers.isFollower(alice.id, `@cat@${C}`), WAIT);
  // bob and carol both follow alice; alice follows bob.
  await follow(b, bob, a, alice);
  await follow(b, carol, a, alice);
  await follow(a, alice, b, bob);
});

afterAll(async () => {
  await triangle?.close();
});

test('A → B: a post to a circle holding bob reaches bob only; carol, anonymous and C get nothing', async () => {
  const word = `quokka${randomUUID().slice(0, 8)}`;
  const friends = await circle(a, alice, [bob.id]);
  const id = await post(a, alice, friends, `for friends: ${word}`);
  await readable(b, bob, id);

  expect((await read(b, bob, id)).body).toMatchObject({
    id,
    originDomain: A,
    visibility: 'Audience',
    to: friends,
  });
  await hiddenEverywhere(b, carol, id);
  await hiddenEverywhere(b, undefined, id);
  expect(await timelineOf(b, bob)).toContain(id);
  expect(await timelineOf(b, carol)).not.toContain(id);
  await waitFor(async () => (await search(b, bob, word)).includes(id), WAIT);
  expect(await search(b, carol, word)).toEqual([]);
  // What B stored: the copy to alice's circle, cached on B holding bob alone; its fan-out reached
  // bob's timelines holding alice (his Following among them), never carol's.
  const me = await api(b).get<{ user: { following: string } }>('/auth/me', { token: bob.token });
  const copy = await repos(b).posts.byId(id);
  expect(copy).toMatchObject({ to: friends });
  expect(copy?.circles).toContain(me.body.user.following);
  const owners = [...(await repos(b).circles.liveByIds(copy?.circles ?? [])).values()].map((c) => c.actorId);
  expect(new Set(owners)).toEqual(new Set([bob.id]));
  expect(await repos(b).circles.byId(friends)).toMatchObject({ originDomain: A, actorId: alice.id });
  expect(await membersOf(b, friends)).toEqual([bob.id]);

  // C follows alice but is in no audience of this post: the planner names B alone, and a public
  // post of alice's, planned after it, reached C while the circle post never did.
  expect(await plannedFor(a, id)).toEqual([B]);
  const marker = await post(a, alice, '@public', 'public marker');
  await waitFor(() => Promise.resolve(peerC.received.some((r) => r.body.toString().includes(marker))), WAIT);
  expect(peerC.received.filter((r) => r.body.toString().includes(id))).toEqual([]);
});

test('B → A: a post to a circle holding alice reaches alice only; amy gets 404 in every mode', async () => {
  const pals = await circle(b, bob, [alice.id], 'Pals');
  const id = await post(b, bob, pals, 'for my pal on A');
  await readable(a, alice, id);
  expect((await read(a, alice, id)).body).toMatchObject({ id, originDomain: B, visibility: 'Audience' });
  await hiddenEverywhere(a, amy, id);
  await hiddenEverywhere(a, undefined, id);
  expect(await timelineOf(a, alice)).toContain(id);
  expect(await membersOf(a, pals)).toEqual([alice.id]);
  expect(await plannedFor(b, id)).toEqual([A]);
});

test('a circle holding the other server reaches all its users, not anonymous callers (both ways)', async () => {
  const servers = await circle(a, alice, [`@${B}`], 'Everyone on B');
  const id = await post(a, alice, servers, 'to all of B');
  await readable(b, bob, id);
  await readable(b, carol, id);
  await hiddenEverywhere(b, undefined, id);
  // B may read it as a server (a signed GET): a lookup of the origin answers its users.
  expect((await read(b, carol, id, 'remote')).status).toBe(200);
  expect(await membersOf(b, servers)).toEqual([`@${B}`]);

  const back = await circle(b, bob, [`@${A}`], 'Everyone on A');
  const reply = await post(b, bob, back, 'to all of A');
  await readable(a, alice, reply);
  await readable(a, amy, reply);
  await hiddenEverywhere(a, undefined, reply);
});

test("a signed GET from a member's server reads only what that server may read (spec tiers)", async () => {
  const friends = await circle(a, alice, [bob.id], 'Only bob');
  const id = await post(a, alice, friends, 'bob only');
  await readable(b, bob, id);
  // B asks A as itself: a circle holding bob@B is not B's to read (only what B's users may all read).
  expect((await read(b, bob, id, 'remote')).status).toBe(404);
  // bob reads his copy: prefer-local answers from it.
  expect((await read(b, bob, id, 'prefer-local')).status).toBe(200);
});

/** The outcome B recorded for an inbound activity, once it has one. */
async function outcomeOn(s: TestServer, remoteId: string): Promise<string> {
  let status = '';
  await waitFor(async () => {
    const log = await activityLog(s);
    status = log.find((r) => r.remoteId === remoteId)?.inbound?.status ?? '';
    return !!status && status !== 'accepted';
  }, WAIT);
  return status;
}

test('from a peer: only existing users of this server are members; an older Add after a newer Remove does not re-add', async () => {
  const cat = `@cat@${C}`;
  const hex = () => randomUUID().replace(/-/g, '').slice(0, 24);
  const circleId = `circle:${hex()}@${C}`;
  const postId = `post:${hex()}@${C}`;
  const n = randomUUID();
  const sent = async (suffix: string, activity: Record<string, unknown>) => {
    const id = `http://${C}/activities/${n}-${suffix}`;
    expect(
      (await peerC.send(`${b.url}/inbox`, { id, actorId: cat, actor: { id: cat }, ...activity })).status,
    ).toBe(202);
    return outcomeOn(b, id);
  };
  const target = (rev: number, members: string[]) => ({
    id: circleId,
    actorId: cat,
    name: 'Cats',
    rev,
    members,
  });
  expect(
    await sent('create', {
      type: 'Create',
      to: [circleId],
      recipients: [bob.id, `@ghost@${B}`, '@eve@elsewhere.test'],
      circle: { id: circleId, actorId: cat, name: 'Cats', rev: 1 },
      object: { id: postId, type: 'Note', attributedTo: cat, content: '<p>cats only</p>', to: [circleId] },
    }),
  ).toBe('processed');
  expect(await membersOf(b, circleId)).toEqual([bob.id]);
  expect((await read(b, bob, postId)).status).toBe(200);
  await hiddenEverywhere(b, carol, postId);

  expect(await sent('remove', { type: 'Remove', object: bob.id, target: target(3, []) })).toBe('processed');
  expect((await read(b, bob, postId)).status).toBe(404);
  // The Add of revision 2 was sent before the Remove of revision 3 and arrives after it.
  expect(await sent('add', { type: 'Add', object: bob.id, target: target(2, [bob.id]) })).toBe('processed');
  expect(await membersOf(b, circleId)).toEqual([]);
  expect((await read(b, bob, postId)).status).toBe(404);
  // Someone else's circle, or a member not of this server: refused or ignored, nothing changes.
  expect(
    await sent('foreign', {
      type: 'Add',
      object: bob.id,
      target: { ...target(9, [bob.id]), id: `circle:${'f'.repeat(24)}@${A}` },
    }),
  ).toBe('rejected');
  expect(await sent('elsewhere', { type: 'Add', object: '@eve@elsewhere.test', target: target(9, []) })).toBe(
    'ignored',
  );
  expect(await membersOf(b, circleId)).toEqual([]);
});

describe.each([
  ['A → B', () => [a, alice, b, bob, carol] as const],
  ['B → A', () => [b, bob, a, alice, amy] as const],
])('%s', (_label, sides) => {
  test('a removed member stops reading and receiving at once, and reads again when added back', async () => {
    const [origin, owner, other, member, outsider] = sides();
    const close = await circle(origin, owner, [member.id], 'Close');
    const old = await post(origin, owner, close, 'while a member');
    await readable(other, member, old);

    await send(origin, owner, { type: 'Remove', target: close, object: member.id });
    await unreadable(other, member, old);
    expect(await membersOf(other, close)).toEqual([]);
    const after = await post(origin, owner, close, 'after the removal');
    expect(await plannedFor(origin, after)).toEqual([]);
    // A later post to a circle still holding the member reaches them; the one above never did.
    const still = await circle(origin, owner, [member.id], 'Still');
    const marker = await post(origin, owner, still, 'marker');
    await readable(other, member, marker);
    expect(await traceOf(other, after)).toEqual({ copy: null, activities: 0 });

    await send(origin, owner, { type: 'Add', target: close, object: member.id });
    await readable(other, member, old);
    await hiddenEverywhere(other, outsider, old);
  });

  test('edits, a move to another circle and the delete of a circle post follow it', async () => {
    const [origin, owner, other, member, outsider] = sides();
    const x = await circle(origin, owner, [member.id], 'X');
    const y = await circle(origin, owner, [outsider.id], 'Y');
    const id = await post(origin, owner, x, 'first words');
    await readable(other, member, id);

    await send(origin, owner, { type: 'Update', target: id, object: { content: 'second words' } });
    await waitFor(
      async () => String((await read(other, member, id)).body.body).includes('second words'),
      WAIT,
    );

    await send(origin, owner, { type: 'Update', target: id, object: { to: y } });
    await readable(other, outsider, id);
    await unreadable(other, member, id);
    expect(await repos(other).posts.byId(id)).toMatchObject({ to: y });

    await send(origin, owner, { type: 'Delete', target: id });
    await unreadable(other, outsider, id);
    expect((await repos(other).posts.byId(id))?.deletedAt).toBeTruthy();
  });
});

test('A → B: an account deleted on A leaves B’s circles, groups, timelines and follows', async () => {
  const ann = await registerActor(api(a), 'ann');
  await follow(b, bob, a, ann);
  await follow(a, ann, b, bob);
  const pals = await circle(b, bob, [ann.id], 'Ann and co');
  const group = (
    await send(b, bob, { type: 'Create', objectType: 'Group', to: '@public', object: { name: 'Club' } })
  ).createdId!;
  await send(b, bob, { type: 'Add', to: group, object: ann.id });
  expect(await repos(b).groups.byId(group)).toMatchObject({ memberCount: 2 });
  const id = await post(a, ann, '@public', 'before I go');
  await waitFor(async () => (await timelineOf(b, bob)).includes(id), WAIT);
  expect((await repos(b).circles.membershipsOf(ann.id)).circles).toContain(pals);

  await send(a, ann, { type: 'Delete', target: ann.id });
  await waitFor(async () => (await repos(b).circles.membershipsOf(ann.id)).circles.length === 0, WAIT);
  expect(await membersOf(b, pals)).toEqual([]);
  expect(await repos(b).groups.byId(group)).toMatchObject({ memberCount: 1 });
  expect(await repos(b).followers.isFollower(bob.id, ann.id)).toBe(false);
  expect(await timelineOf(b, bob)).not.toContain(id);
  expect((await repos(b).posts.byId(id))?.deletedAt).toBeTruthy();
});

test('B → A: an account deleted on B leaves A’s circles', async () => {
  const bea = await registerActor(api(b), 'bea');
  const bees = await circle(a, alice, [], 'Bees');
  await send(a, alice, { type: 'Add', target: bees, object: bea.id });
  // B learnt of the membership (its copy of the circle holds bea): B knows A holds her.
  await waitFor(async () => (await membersOf(b, bees)).includes(bea.id), WAIT);

  await send(b, bea, { type: 'Delete', target: bea.id });
  await waitFor(async () => (await membersOf(a, bees)).length === 0, WAIT);
  expect((await repos(a).circles.membershipsOf(bea.id)).circles).toEqual([]);
});

test('profile updates refresh the copies on the other server (both ways)', async () => {
  const friends = await circle(a, alice, [bob.id], 'Named');
  const id = await post(a, alice, friends, 'who am I');
  await readable(b, bob, id);
  await send(a, alice, { type: 'Update', target: alice.id, object: { profile: { name: 'Alice Liddell' } } });
  await waitFor(async () => {
    const body = (await read(b, bob, id)).body as { attributedTo?: { name?: string } };
    return body.attributedTo?.name === 'Alice Liddell';
  }, WAIT);

  // bob is a member of alice's circle on A: his entry there takes his new name.
  await send(b, bob, { type: 'Update', target: bob.id, object: { profile: { name: 'Robert' } } });
  await waitFor(async () => {
    const c = await repos(a).circles.byId(friends);
    return c?.members.find((m) => m.id === bob.id)?.name === 'Robert';
  }, WAIT);
});

/**
 * Polls: the member's server pulls the origin every second; the origin never pulls it back (which
 * would count as the member's server answering again and release what is held) and probes only
 * once an hour, so what the breaker holds stays held while the pull brings the post.
 */
describe.each([
  ['P → Q', 'poll-p.test', 'poll-q.test'],
  ['Q → P', 'poll-q2.test', 'poll-p2.test'],
])('%s: polls of circle posts, pushes cut off', (_label, ORIGIN, MEMBER) => {
  let origin: TestServer;
  let other: TestServer;
  let owner: Actor;
  let member: Actor;
  // The origin reaches the member's server through this relay, which the test cuts: pushes then
  // fail and are held, while the member's server still pulls from the origin directly. (An open
  // breaker alone is not enough: the member's pulls are signed requests, which tell the origin
  // that server is back and release what it holds.)
  let relay: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    const [portO, portM, portR] = [await freePort(), await freePort(), await freePort()];
    relay = createServer((client) => {
      const upstream = connect(portM, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    }).listen(portR, '127.0.0.1');
    [origin, other] = await Promise.all([
      boot(ORIGIN, portO, { [MEMBER]: `127.0.0.1:${portR}` }),
      boot(MEMBER, portM, { [ORIGIN]: `127.0.0.1:${portO}` }, { FEDERATION_POLL_SECONDS: '1' }),
    ]);
    [owner, member] = await Promise.all([
      registerActor(api(origin), 'olga'),
      registerActor(api(other), 'mo'),
    ]);
  });
  afterAll(async () => {
    relay?.close();
    for (const s of sockets) s.destroy();
    await origin?.close();
    await other?.close();
  });

  test('a circle post reaches its member by pull while its push cannot get through', async () => {
    // The member's server knows of the circle (its Add came by push): it pulls its owner.
    const c = await circle(origin, owner, [], 'Polled');
    await send(origin, owner, { type: 'Add', target: c, object: member.id });
    await waitFor(async () => (await membersOf(other, c)).includes(member.id), WAIT);
    // The member's server has pulled from the origin once since (so the origin holds its key: it
    // could not fetch it through the cut relay).
    const since = Date.now();
    await waitFor(
      async () => ((await repos(other).remoteServers.byDomain(ORIGIN))?.lastPolledAt?.getTime() ?? 0) > since,
      WAIT,
    );
    // From now on the origin cannot reach the member's server.
    await new Promise((r) => relay.close(r));
    for (const s of sockets) s.destroy();

    const id = await post(origin, owner, c, 'by pull');
    await readable(other, member, id);
    // The push is held on the origin; what the member's server recorded came by pull.
    expect(await repos(origin).parkedDeliveries.isHeld(MEMBER, id)).toBe(true);
    const log = await activityLog(other);
    expect(log.filter((r) => String(r.raw).includes(id)).map((r) => r.inbound?.keyId)).toEqual(['pull']);
    await hiddenEverywhere(other, undefined, id);
  });
});
