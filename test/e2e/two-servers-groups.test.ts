/**
 * Groups between two real Agora servers (issue 23; docs/federation.md, "Groups"), each way: a
 * user of one server joins (open, or by approval: the group's admins hear of the request, the
 * user of its approval) and leaves a group of the other, or is added by its admin; the member's
 * server caches the group with its members there; group posts reach the member servers only (where
 * non-members may read them, the groups being public: ADR 0023) and a member posts to the group
 * from their own server, checked by the group's server as a local post.
 * Absence is proven on recorded state: the planner's targets, and what the other server stored
 * (its posts and its activity log) after a later delivery went through.
 */
import { randomUUID } from 'node:crypto';
import { waitFor, type TestServer } from '../harness/standalone';
import { outbox, type Actor } from '../harness/actors';
import type { SigningPeer } from '../harness/fake-peer';
import {
  api,
  inboundNaming,
  plannedFor,
  post,
  read,
  readable as readableOn,
  repos,
  send,
  bootTriangle,
  type Triangle,
} from '../harness/two-servers';

const A = 'grp-a.test';
const B = 'grp-b.test';
const C = 'grp-c.test';
const WAIT = 20_000;

let a: TestServer;
let b: TestServer;
let peerC: SigningPeer;
let alice: Actor;
let amy: Actor;
let bob: Actor;
let carol: Actor;
let triangle: Triangle | undefined;

const act = (s: TestServer, who: Actor, activity: Record<string, unknown>) => outbox(api(s), who, activity);

async function group(s: TestServer, owner: Actor, name: string, rsvpPolicy = 'open'): Promise<string> {
  const body = await send(s, owner, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name, rsvpPolicy },
  });
  return body.createdId!;
}

const readable = (s: TestServer, who: Actor, id: string) => readableOn(s, who, id, WAIT);

/**
 * These groups are public, so a non-member (or anonymous) reads a post the server holds, as
 * its members do (ADR 0023); receiving the group's posts and writing stay with members.
 */
async function openToNonMember(s: TestServer, who: Actor | undefined, id: string) {
  expect((await read(s, who, id, 'local')).status).toBe(200);
}

/** The groups a user is a member of on a server (its membership index). */
const groupsOf = async (s: TestServer, who: Actor) => (await repos(s).circles.membershipsOf(who.id)).groups;
const isMember = (s: TestServer, who: Actor, groupId: string) =>
  waitFor(async () => (await groupsOf(s, who)).includes(groupId), WAIT);
const isNotMember = (s: TestServer, who: Actor, groupId: string) =>
  waitFor(async () => !(await groupsOf(s, who)).includes(groupId), WAIT);

async function memberIds(s: TestServer, groupId: string, role = 'members'): Promise<string[]> {
  const g = await repos(s).groups.byId(groupId);
  const circleId = (g?.circles as Record<string, string> | undefined)?.[role];
  return circleId ? (await repos(s).circles.memberIds(circleId)).sort() : [];
}

async function notes(s: TestServer, who: Actor, type: string) {
  const res = await api(s).get<{ orderedItems: Array<Record<string, unknown>> }>(
    `/notifications?types=${type}`,
    {
      token: who.token,
    },
  );
  return res.status === 200 ? res.body.orderedItems : [];
}

beforeAll(async () => {
  triangle = await bootTriangle(A, B, C);
  ({ a, b, peerC, alice, amy, bob, carol } = triangle);
  // carol follows alice, so alice's public posts reach B (the marker of "a later delivery").
  const res = await api(b).post(
    '/outbox',
    { type: 'Follow', target: alice.id },
    { token: carol.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expect(res.status).toBe(201);
  await waitFor(() => repos(a).followers.isFollower(alice.id, carol.id), WAIT);
});

afterAll(async () => {
  await triangle?.close();
});

describe('A → B: bob on B joins alice’s open group on A', () => {
  let gid: string;

  test('Join: A enrols bob, B caches the group holding bob (not carol)', async () => {
    gid = await group(a, alice, 'Gardeners');
    const join = await send(b, bob, { type: 'Join', target: gid });
    expect(join.result).toMatchObject({ status: 'requested' });
    await waitFor(async () => (await memberIds(a, gid)).includes(bob.id), WAIT);
    await isMember(b, bob, gid);
    expect(await repos(b).groups.byId(gid)).toMatchObject({
      originDomain: A,
      name: 'Gardeners',
      to: '@public',
    });
    expect(await groupsOf(b, carol)).not.toContain(gid);
    expect((await repos(a).groups.byId(gid))?.memberCount).toBe(2);
    // B's reads of the (public) group: its copy, with each viewer's place in it.
    const detail = (who: Actor) =>
      api(b).get<{ item: Record<string, unknown> }>(`/groups/${encodeURIComponent(gid)}`, {
        token: who.token,
      });
    expect((await detail(bob)).body.item).toMatchObject({ id: gid, name: 'Gardeners', isMember: true });
    expect((await detail(carol)).body.item).toMatchObject({ id: gid, isMember: false });
  });

  test("B lists the group's members as A does (B caches only its own)", async () => {
    const members = await api(b).get<{ totalItems: number; orderedItems: Array<{ id: string }> }>(
      `/groups/${encodeURIComponent(gid)}/members`,
      { token: carol.token },
    );
    expect(members.status).toBe(200);
    expect(members.body.totalItems).toBe(2);
    expect(members.body.orderedItems.map((m) => m.id).sort()).toEqual([alice.id, bob.id].sort());
    // Paged as asked, with B's own collection links.
    const page = await api(b).get<{ orderedItems: unknown[]; id: string }>(
      `/groups/${encodeURIComponent(gid)}/members?page=2&limit=1`,
      { token: carol.token },
    );
    expect(page.body.orderedItems).toHaveLength(1);
    expect(page.body.id).toContain(`/groups/${encodeURIComponent(gid)}/members`);
    expect(page.body.id.startsWith(b.config.publicUrl)).toBe(true);
  });

  test('a group post on A reaches bob on B; carol and anonymous read it there (a public group)', async () => {
    const id = await post(a, alice, gid, 'hello gardeners');
    expect(await plannedFor(a, id)).toEqual([B]);
    await readable(b, bob, id);
    expect(await repos(b).posts.byId(id)).toMatchObject({ to: gid, group: gid, originDomain: A });
    await openToNonMember(b, carol, id);
    await openToNonMember(b, undefined, id);
    const listed = await api(b).get<{ orderedItems: Array<{ id: string }> }>(
      `/groups/${encodeURIComponent(gid)}/posts`,
      { token: bob.token },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.orderedItems.map((p) => p.id)).toContain(id);
  });

  test('bob posts to the group from B: A checks and stores it; a non-member on B may read but not post', async () => {
    const id = await post(b, bob, gid, 'from B to the gardeners');
    expect(await plannedFor(b, id)).toEqual([A]);
    await readable(a, alice, id);
    expect(await repos(a).posts.byId(id)).toMatchObject({ to: gid, group: gid, originDomain: B });
    await openToNonMember(a, amy, id);
    const listed = await api(a).get<{ orderedItems: Array<{ id: string }> }>(
      `/groups/${encodeURIComponent(gid)}/posts`,
      { token: alice.token },
    );
    expect(listed.body.orderedItems.map((p) => p.id)).toContain(id);
    const refused = await act(b, carol, {
      type: 'Create',
      objectType: 'Post',
      to: gid,
      object: { content: 'x' },
    });
    expect(refused.status).toBe(403);
  });

  test('replies and reactions on a group post travel both ways; a non-member’s reply is refused', async () => {
    const id = await post(a, alice, gid, 'what shall we plant?');
    await readable(b, bob, id);
    const reply = (await send(b, bob, { type: 'Reply', to: id, object: { content: 'tomatoes' } })).createdId!;
    await waitFor(async () => (await repos(a).replies.byId(reply))?.target === id, WAIT);
    await send(a, alice, { type: 'React', to: id, object: { emoji: '🌱' } });
    await waitFor(async () => ((await repos(b).posts.byId(id))?.reactCount ?? 0) === 1, WAIT);
    const back = (await send(a, alice, { type: 'Reply', to: id, object: { content: 'yes' } })).createdId!;
    await waitFor(async () => !!(await repos(b).replies.byId(back)), WAIT);
    // carol on B is no member: she may read the public group's post, but B refuses her reply.
    const refused = await act(b, carol, { type: 'Reply', to: id, object: { content: 'me too' } });
    expect(refused.status).toBe(403);
  });

  test('a member’s server cannot speak for a non-member: A refuses the post and stores nothing', async () => {
    const id = `post:${randomUUID().replace(/-/g, '').slice(0, 24)}@${C}`;
    const res = await peerC.send(`${a.url}/inbox`, {
      id: `http://${C}/activities/${randomUUID()}`,
      type: 'Create',
      actorId: `@cat@${C}`,
      actor: { id: `@cat@${C}`, inbox: `http://${C}/inbox` },
      to: [gid],
      object: { id, type: 'Note', attributedTo: `@cat@${C}`, content: 'let me in', to: [gid] },
    });
    expect(res.status).toBe(202);
    await waitFor(
      async () => (await inboundNaming(a, id)).some((r) => r.inbound?.status === 'rejected'),
      WAIT,
    );
    expect(await repos(a).posts.byId(id)).toBeNull();
  });

  test('only users join: a server actor’s Join is rejected and changes nothing', async () => {
    const before = await memberIds(a, gid);
    const activityId = `http://${C}/activities/${randomUUID()}`;
    const res = await peerC.send(`${a.url}/inbox`, {
      id: activityId,
      type: 'Join',
      actorId: `@${C}`,
      actor: { id: `@${C}`, inbox: `http://${C}/inbox` },
      object: gid,
    });
    expect(res.status).toBe(202);
    await waitFor(
      async () =>
        (await inboundNaming(a, activityId)).some(
          (r) => r.inbound?.status === 'rejected' && r.inbound.reason === 'actor: only users join groups',
        ),
      WAIT,
    );
    expect(await memberIds(a, gid)).toEqual(before);
    expect(await memberIds(a, gid, 'pending')).toEqual([]);
  });

  test('Leave: A drops bob, B drops its membership, and later group posts skip B', async () => {
    const leave = await send(b, bob, { type: 'Leave', target: gid });
    expect(leave.result).toMatchObject({ status: 'leave_requested' });
    await waitFor(async () => !(await memberIds(a, gid)).includes(bob.id), WAIT);
    await isNotMember(b, bob, gid);
    const id = await post(a, alice, gid, 'after bob left');
    expect(await plannedFor(a, id)).toEqual([]);
    // A later delivery to B went through; the group post never reached it.
    const marker = await post(a, alice, '@public', `marker ${randomUUID()}`);
    await waitFor(async () => !!(await repos(b).posts.byId(marker)), WAIT);
    expect(await repos(b).posts.byId(id)).toBeNull();
    expect(await inboundNaming(b, id)).toEqual([]);
  });
});

describe('three servers: the group’s server relays members’ posts to the others', () => {
  test('cat on C posts to A’s group: A stores and relays it to B (bob reads it); bob’s post is relayed to C, not back to B', async () => {
    const gid = await group(a, alice, 'Relay club');
    await send(b, bob, { type: 'Join', target: gid });
    const cat = `@cat@${C}`;
    const joined = await peerC.send(`${a.url}/inbox`, {
      id: `http://${C}/activities/${randomUUID()}`,
      type: 'Join',
      actorId: cat,
      actor: { id: cat, inbox: `http://${C}/inbox` },
      object: gid,
    });
    expect(joined.status).toBe(202);
    await waitFor(async () => (await memberIds(a, gid)).length === 3, WAIT);
    await isMember(b, bob, gid);
    // C was told of cat's membership (Add by the group).
    await waitFor(
      () =>
        Promise.resolve(
          peerC.received.some(
            (r) => r.body.toString().includes('"type":"Add"') && r.body.toString().includes(gid),
          ),
        ),
      WAIT,
    );

    const catPost = `post:${randomUUID().replace(/-/g, '').slice(0, 24)}@${C}`;
    const sent = await peerC.send(`${a.url}/inbox`, {
      id: `http://${C}/activities/${randomUUID()}`,
      type: 'Create',
      actorId: cat,
      actor: { id: cat, name: 'Cat', inbox: `http://${C}/inbox` },
      to: [gid],
      object: { id: catPost, type: 'Note', attributedTo: cat, content: 'meow to the club', to: [gid] },
    });
    expect(sent.status).toBe(202);
    await readable(a, alice, catPost);
    await readable(b, bob, catPost);
    expect(await repos(b).posts.byId(catPost)).toMatchObject({ to: gid, group: gid, originDomain: C });
    await openToNonMember(b, carol, catPost);

    const bobPost = await post(b, bob, gid, 'hello cat');
    await readable(a, alice, bobPost);
    await waitFor(
      () => Promise.resolve(peerC.received.some((r) => r.body.toString().includes(bobPost))),
      WAIT,
    );
    const relayed = peerC.received.find((r) => r.body.toString().includes(bobPost))!;
    expect(JSON.parse(relayed.body.toString())).toMatchObject({
      type: 'Announce',
      actorId: gid,
      object: { type: 'Create', actorId: bob.id, recipients: [cat], object: { id: bobPost } },
    });
    // B, the author's server, gets no relay of its own post.
    expect(await inboundNaming(b, bobPost)).toEqual([]);
  });

  test('a server relaying a post to a group that is not its own is not heard', async () => {
    const gid = await group(a, alice, 'Not C’s group');
    const forged = `post:${randomUUID().replace(/-/g, '').slice(0, 24)}@${A}`;
    const res = await peerC.send(`${b.url}/inbox`, {
      id: `http://${C}/activities/${randomUUID()}`,
      type: 'Announce',
      actorId: `@${C}`,
      actor: { id: `@${C}`, inbox: `http://${C}/inbox` },
      object: {
        type: 'Create',
        actorId: alice.id,
        to: [gid],
        recipients: [bob.id],
        object: { id: forged, type: 'Note', attributedTo: alice.id, content: 'forged', to: [gid] },
      },
    });
    expect(res.status).toBe(202);
    await waitFor(
      async () => (await inboundNaming(b, forged)).some((r) => r.inbound?.status !== 'accepted'),
      WAIT,
    );
    expect(await repos(b).posts.byId(forged)).toBeNull();
  });
});

describe('approval and admins', () => {
  test('approvalOnly: A’s admins hear of bob’s request; approved, bob is told on B and joins', async () => {
    const gid = await group(a, alice, 'Careful club', 'approvalOnly');
    await send(b, bob, { type: 'Join', target: gid });
    await waitFor(async () => (await memberIds(a, gid, 'pending')).includes(bob.id), WAIT);
    await waitFor(async () => (await notes(a, alice, 'join_request')).length === 1, WAIT);
    expect((await notes(a, alice, 'join_request'))[0]).toMatchObject({ actorId: bob.id, objectId: gid });
    expect(await groupsOf(b, bob)).not.toContain(gid);
    await send(a, alice, { type: 'Add', to: gid, object: bob.id });
    await isMember(b, bob, gid);
    await waitFor(async () => (await notes(b, bob, 'join_approved')).length === 1, WAIT);
    expect((await notes(b, bob, 'join_approved'))[0]).toMatchObject({ objectId: gid });
  });

  test('a pending request is withdrawn by a Leave from the member’s server', async () => {
    const gid = await group(a, alice, 'Patient people', 'approvalOnly');
    await send(b, carol, { type: 'Join', target: gid });
    await waitFor(async () => (await memberIds(a, gid, 'pending')).includes(carol.id), WAIT);
    const leave = await send(b, carol, { type: 'Leave', target: gid });
    expect(leave.result).toMatchObject({ status: 'leave_requested' });
    await waitFor(async () => !(await memberIds(a, gid, 'pending')).includes(carol.id), WAIT);
    expect(await memberIds(a, gid)).toEqual([alice.id]);
  });

  test('rejected: carol’s server records the Reject; carol never becomes a member', async () => {
    const gid = await group(a, alice, 'Closed circle', 'approvalOnly');
    await send(b, carol, { type: 'Join', target: gid });
    await waitFor(async () => (await memberIds(a, gid, 'pending')).includes(carol.id), WAIT);
    await send(a, alice, { type: 'Remove', to: gid, object: carol.id });
    await waitFor(
      async () =>
        (await inboundNaming(b, gid)).some((r) => r.type === 'Reject' && r.inbound?.status === 'processed'),
      WAIT,
    );
    expect(await groupsOf(b, carol)).not.toContain(gid);
    expect(await memberIds(a, gid)).toEqual([alice.id]);
  });

  test('inviteOnly: a remote Join is refused, an admin adds carol and B learns it', async () => {
    const gid = await group(a, alice, 'By invitation', 'inviteOnly');
    await send(b, carol, { type: 'Join', target: gid });
    await waitFor(
      async () =>
        (await inboundNaming(b, gid)).some((r) => r.type === 'Reject' && r.inbound?.status === 'processed'),
      WAIT,
    );
    expect(await memberIds(a, gid, 'pending')).toEqual([]);
    await send(a, alice, { type: 'Add', to: gid, object: carol.id });
    await isMember(b, carol, gid);
    expect(await memberIds(a, gid)).toEqual([alice.id, carol.id].sort());
  });
});

describe('the group itself', () => {
  test('renamed on A, B’s cached copy follows; deleted on A, bob on B loses it and its posts', async () => {
    const gid = await group(a, alice, 'Old name');
    await send(b, bob, { type: 'Join', target: gid });
    await isMember(b, bob, gid);
    const id = await post(a, alice, gid, 'before the end');
    await readable(b, bob, id);
    await send(a, alice, { type: 'Update', objectType: 'Group', target: gid, object: { name: 'New name' } });
    await waitFor(async () => (await repos(b).groups.byId(gid))?.name === 'New name', WAIT);
    await send(a, alice, { type: 'Delete', target: gid });
    await waitFor(async () => !!(await repos(b).groups.byId(gid))?.deletedAt, WAIT);
    await isNotMember(b, bob, gid);
    expect((await read(b, bob, id)).status).toBe(404);
  });
});

describe('B → A: alice on A joins bob’s group on B', () => {
  test('join, posts both ways, and a server with no member stores nothing', async () => {
    const gid = await group(b, bob, 'Bakers');
    const other = await group(b, bob, 'Nobody from A');
    await send(a, alice, { type: 'Join', target: gid });
    await isMember(a, alice, gid);
    expect(await groupsOf(a, amy)).not.toContain(gid);

    const fromB = await post(b, bob, gid, 'fresh bread');
    await readable(a, alice, fromB);
    await openToNonMember(a, amy, fromB);

    const fromA = await post(a, alice, gid, 'from A to the bakers');
    await readable(b, bob, fromA);
    expect(await repos(b).posts.byId(fromA)).toMatchObject({ to: gid, group: gid, originDomain: A });
    await openToNonMember(b, carol, fromA);

    const lonely = await post(b, bob, other, 'no one from A here');
    expect(await plannedFor(b, lonely)).toEqual([]);
    const later = await post(b, bob, gid, `later ${randomUUID()}`);
    await readable(a, alice, later);
    expect(await repos(a).posts.byId(lonely)).toBeNull();
    expect(await inboundNaming(a, lonely)).toEqual([]);
    expect(await repos(a).groups.byId(other)).toBeNull();
  });
});
