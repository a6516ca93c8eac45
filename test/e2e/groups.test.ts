/**
 * Groups (behaviour-notes §3.8, §4.3): creation with five circles, Join under every rsvpPolicy,
 * approval and rejection by admins, Leave, admin-only Add/Remove and pending list, group posts
 * read by the group's audience (ADR 0023), and the GET /groups audience tiers.
 */
import { randomUUID } from 'node:crypto';
import { ANONYMOUS, buildViewer } from '@agora/common/audience';
import { parsePaging } from '@agora/common/http';
import type { BusMessage } from '@agora/common/messaging';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { listUserGroups } from '../../services/social/src/views/groups';
import { createSocialContext } from '../../services/social/src/context';

type Group = {
  id: string;
  memberCount: number;
  rsvpPolicy: string;
  circles: Record<string, string>;
  status?: string;
  url: string;
  inbox: string;
  to: string;
};
type Collection<T = { id: string }> = { type: string; totalItems: number; orderedItems: T[] };

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;
const events: BusMessage[] = [];

/** POST /outbox with a fresh Idempotency-Key, so repeated bodies reach the handler. */
function act(actor: Actor | undefined, activity: unknown) {
  return api.post<{ createdId?: string; result?: Group & Record<string, unknown>; error?: string }>(
    '/outbox',
    activity,
    {
      headers: { 'idempotency-key': randomUUID() },
      ...(actor ? { token: actor.token } : {}),
    },
  );
}

async function createGroup(
  actor: Actor,
  object: Record<string, unknown>,
  to: string = '@public',
): Promise<Group> {
  const res = await act(actor, { type: 'Create', objectType: 'Group', to, object });
  if (res.status !== 201) throw new Error(`create group: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result!;
}

/** Waits for a published event (delivery to subscribers is asynchronous). */
async function published(name: string, match: Record<string, unknown>): Promise<BusMessage> {
  const find = () =>
    events.find(
      (e) =>
        e.name === name &&
        Object.entries(match).every(
          ([k, v]) => JSON.stringify((e.payload as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
    );
  await waitFor(() => Promise.resolve(!!find()), 5000, 50);
  return find()!;
}

const ids = (c: { orderedItems: Array<{ id: string }> }) => c.orderedItems.map((x) => x.id);

async function groupsCircleOf(actor: Actor): Promise<string[]> {
  const me = await api.get<{ user: { groups: string } }>('/auth/me', { token: actor.token });
  if (me.status !== 200) throw new Error(`/auth/me: ${me.status} ${JSON.stringify(me.body)}`);
  const members = await api.get<Collection>(`/circles/${me.body.user.groups}/members`, {
    token: actor.token,
  });
  if (members.status !== 200)
    throw new Error(`groups circle: ${members.status} ${JSON.stringify(members.body)}`);
  return ids(members.body);
}

async function detail(group: Group, actor?: Actor) {
  return api.get<{
    item: Group & { isMember: boolean; isAdmin: boolean; isPending: boolean };
    error?: string;
  }>(`/groups/${group.id}`, actor ? { token: actor.token } : {});
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob, carol, dave] = (await Promise.all(
    ['alice', 'bob', 'carol', 'dave'].map((n) => registerActor(api, n)),
  )) as [Actor, Actor, Actor, Actor];
  await server.services[0]!.runtime!.bus.subscribe('test.groups', ['group.*', 'member.*'], (msg) => {
    events.push(msg);
    return Promise.resolve();
  });
});
afterAll(async () => {
  await server?.close();
});

describe('Create Group', () => {
  test('the creator gets five circles, is admin, moderator and member, and has the group in Groups', async () => {
    const group = await createGroup(alice, { name: 'Gardeners', description: 'We grow things' });
    expect(group.id).toMatch(/^group:[0-9a-f]{24}@social\.test$/);
    expect(group).toMatchObject({ rsvpPolicy: 'open', memberCount: 1, to: '@public', actorId: alice.id });
    expect(group.url).toBe(`${server.config.publicUrl}/groups/${group.id}`);
    expect(group.inbox).toBe(`${group.url}/inbox`);
    expect(Object.keys(group.circles).sort()).toEqual([
      'admins',
      'blocked',
      'members',
      'moderators',
      'pending',
    ]);
    const d = await detail(group, alice);
    expect(d.body.item).toMatchObject({ isMember: true, isAdmin: true, isPending: false });
    expect(await groupsCircleOf(alice)).toContain(group.id);
    const members = await api.get<Collection>(`/groups/${group.id}/members`);
    expect(ids(members.body)).toEqual([alice.id]);
    await published('group.created', { groupId: group.id, actorId: alice.id });
  });

  test('validation and authorisation', async () => {
    expect(
      (await act(undefined, { type: 'Create', objectType: 'Group', object: { name: 'x' } })).status,
    ).toBe(401);
    const noName = await act(alice, { type: 'Create', objectType: 'Group', object: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatch(/object\.name/);
    const badPolicy = await act(alice, {
      type: 'Create',
      objectType: 'Group',
      object: { name: 'x', rsvpPolicy: 'anyone' },
    });
    expect(badPolicy.status).toBe(400);
    expect(badPolicy.body.error).toMatch(/object\.rsvpPolicy/);
    expect(
      (await act(alice, { type: 'Create', objectType: 'Group', to: { $ne: null }, object: { name: 'x' } }))
        .status,
    ).toBe(400);
    expect(
      (await act(alice, { type: 'Create', objectType: 'Group', object: { name: { $gt: '' } } })).status,
    ).toBe(400);
    // Addressing a circle one does not own or belong to is refused.
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
    expect(
      (
        await act(alice, {
          type: 'Create',
          objectType: 'Group',
          to: me.body.user.following,
          object: { name: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('Join under each rsvpPolicy', () => {
  test('open: join at once, idempotently; member.added is published', async () => {
    const group = await createGroup(alice, { name: 'Open group', rsvpPolicy: 'open' });
    const join = await act(bob, { type: 'Join', target: group.id });
    expect(join.status).toBe(201);
    expect(join.body.result).toMatchObject({ status: 'joined', memberCount: 2 });
    const again = await act(bob, { type: 'Join', target: group.id });
    expect(again.body.result).toMatchObject({ status: 'already_joined', memberCount: 2 });
    expect((await detail(group, bob)).body.item).toMatchObject({
      isMember: true,
      isAdmin: false,
      isPending: false,
    });
    expect(await groupsCircleOf(bob)).toContain(group.id);
    await published('member.added', { groupId: group.id, memberId: bob.id });
  });

  test('serverOpen: a local user joins at once', async () => {
    const group = await createGroup(alice, { name: 'Server open', rsvpPolicy: 'serverOpen' });
    expect((await act(carol, { type: 'Join', target: group.id })).body.result).toMatchObject({
      status: 'joined',
      memberCount: 2,
    });
  });

  test('serverApproval: pending until an admin approves with Add; admins are told', async () => {
    const group = await createGroup(alice, { name: 'Server approval', rsvpPolicy: 'serverApproval' });
    const join = await act(bob, { type: 'Join', target: group.id });
    expect(join.body.result).toMatchObject({ status: 'pending', memberCount: 1 });
    expect((await detail(group, bob)).body.item).toMatchObject({ isMember: false, isPending: true });
    const requested = await published('group.join_requested', { groupId: group.id });
    expect(requested.payload).toMatchObject({ actorId: bob.id, adminIds: [alice.id] });

    // The pending list is for group admins only.
    const pending = await api.get<Collection>(`/groups/${group.id}/pending`, { token: alice.token });
    expect(pending.status).toBe(200);
    expect(ids(pending.body)).toEqual([bob.id]);
    expect((await api.get(`/groups/${group.id}/pending`, { token: bob.token })).status).toBe(403);
    expect((await api.get(`/groups/${group.id}/pending`)).status).toBe(401);

    // Only admins approve.
    expect((await act(carol, { type: 'Add', to: group.id, object: bob.id })).status).toBe(403);
    const approve = await act(alice, { type: 'Add', to: group.id, object: bob.id });
    expect(approve.status).toBe(201);
    expect(approve.body.result).toMatchObject({ memberCount: 2 });
    expect((await detail(group, bob)).body.item).toMatchObject({ isMember: true, isPending: false });
    expect(
      ids((await api.get<Collection>(`/groups/${group.id}/pending`, { token: alice.token })).body),
    ).toEqual([]);
    expect(await groupsCircleOf(bob)).toContain(group.id);
    await published('group.join_approved', { groupId: group.id, memberId: bob.id, actorId: alice.id });
  });

  test('approvalOnly: pending, then an admin rejects with Remove', async () => {
    const group = await createGroup(alice, { name: 'Approval only', rsvpPolicy: 'approvalOnly' });
    expect((await act(carol, { type: 'Join', target: group.id })).body.result).toMatchObject({
      status: 'pending',
    });
    expect((await act(carol, { type: 'Join', target: group.id })).body.result).toMatchObject({
      status: 'already_pending',
    });
    expect((await act(carol, { type: 'Remove', to: group.id, object: carol.id })).status).toBe(403);
    const reject = await act(alice, { type: 'Remove', to: group.id, object: carol.id });
    expect(reject.status).toBe(201);
    expect(reject.body.result).toMatchObject({ memberCount: 1 });
    expect((await detail(group, carol)).body.item).toMatchObject({ isMember: false, isPending: false });
    expect(await groupsCircleOf(carol)).not.toContain(group.id);
  });

  test('inviteOnly: Join is refused; an admin can still add members', async () => {
    const group = await createGroup(alice, { name: 'Invite only', rsvpPolicy: 'inviteOnly' });
    const join = await act(bob, { type: 'Join', target: group.id });
    expect(join.status).toBe(403);
    expect(join.body.error).toBe('This group is invite-only');
    expect((await act(alice, { type: 'Add', to: group.id, object: bob.id })).body.result).toMatchObject({
      memberCount: 2,
    });
  });

  test('Join validation: not a group, injection, missing group; a remote group is asked there', async () => {
    expect(
      (await act(bob, { type: 'Join', target: 'post:000000000000000000000000@social.test' })).status,
    ).toBe(400);
    expect((await act(bob, { type: 'Join', target: { $ne: null } })).status).toBe(400);
    expect((await act(bob, { type: 'Join' })).status).toBe(400);
    const remote = await act(bob, {
      type: 'Join',
      target: 'group:000000000000000000000000@elsewhere.example',
    });
    // Another server's group decides there: the request is sent (docs/federation.md, "Groups").
    expect(remote.status).toBe(201);
    expect(remote.body.result).toMatchObject({ status: 'requested' });
    expect(
      (await act(bob, { type: 'Join', target: 'group:000000000000000000000000@social.test' })).status,
    ).toBe(404);
  });
});

describe('Leave, Remove and Block', () => {
  test('Leave drops membership, count and the Groups entry; leaving twice changes nothing', async () => {
    const group = await createGroup(alice, { name: 'Leavers' });
    await act(bob, { type: 'Join', target: group.id });
    const leave = await act(bob, { type: 'Leave', target: group.id });
    expect(leave.status).toBe(201);
    expect(leave.body.result).toMatchObject({ memberCount: 1, removedFrom: ['members'] });
    expect(await groupsCircleOf(bob)).not.toContain(group.id);
    expect((await act(bob, { type: 'Leave', target: group.id })).body.result).toMatchObject({
      memberCount: 1,
      removedFrom: [],
    });
    // The only admin cannot leave members behind without an admin.
    await act(carol, { type: 'Join', target: group.id });
    expect((await act(alice, { type: 'Leave', target: group.id })).status).toBe(409);
  });

  test("an admin removes a member: count and the member's Groups circle follow", async () => {
    const group = await createGroup(alice, { name: 'Removals' });
    await act(bob, { type: 'Join', target: group.id });
    await act(carol, { type: 'Join', target: group.id });
    expect((await act(bob, { type: 'Remove', to: group.id, object: carol.id })).status).toBe(403);
    const removed = await act(alice, { type: 'Remove', to: group.id, object: { id: carol.id } });
    expect(removed.body.result).toMatchObject({ memberCount: 2 });
    expect(await groupsCircleOf(carol)).not.toContain(group.id);
    expect(ids((await api.get<Collection>(`/groups/${group.id}/members`)).body)).toEqual([alice.id, bob.id]);
    // Validation: not a user id, not one of the group's circles.
    expect((await act(alice, { type: 'Remove', to: group.id, object: { $ne: null } })).status).toBe(400);
    expect(
      (await act(alice, { type: 'Add', to: group.id, object: 'post:000000000000000000000000@social.test' }))
        .status,
    ).toBe(400);
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
    expect(
      (await act(alice, { type: 'Add', to: group.id, target: me.body.user.following, object: dave.id }))
        .status,
    ).toBe(400);
  });

  test('blocked users are removed and cannot join again', async () => {
    const group = await createGroup(alice, { name: 'Blockers' });
    await act(dave, { type: 'Join', target: group.id });
    const block = await act(alice, {
      type: 'Add',
      to: group.id,
      target: group.circles.blocked,
      object: dave.id,
    });
    expect(block.status).toBe(201);
    expect(block.body.result).toMatchObject({ memberCount: 1 });
    const again = await act(dave, { type: 'Join', target: group.id });
    expect(again.status).toBe(403);
    expect(await groupsCircleOf(dave)).not.toContain(group.id);
  });

  test('admins can make a member admin, who may then approve', async () => {
    const group = await createGroup(alice, { name: 'Shared admin', rsvpPolicy: 'approvalOnly' });
    await act(alice, { type: 'Add', to: group.id, object: bob.id });
    expect(
      (await act(alice, { type: 'Add', to: group.id, target: group.circles.admins, object: carol.id }))
        .status,
    ).toBe(400);
    expect(
      (await act(alice, { type: 'Add', to: group.id, target: group.circles.admins, object: bob.id })).status,
    ).toBe(201);
    await act(carol, { type: 'Join', target: group.id });
    expect((await act(bob, { type: 'Add', to: group.id, object: carol.id })).body.result).toMatchObject({
      memberCount: 3,
    });
    expect((await detail(group, bob)).body.item).toMatchObject({ isAdmin: true });
  });
});

describe('reading groups', () => {
  let publicGroup: Group, serverGroup: Group, privateGroup: Group;
  let serverPostId: string;

  beforeAll(async () => {
    publicGroup = await createGroup(alice, { name: 'Public readers' });
    serverGroup = await createGroup(alice, { name: 'Server readers' }, '@social.test');
    privateGroup = await createGroup(alice, { name: 'Private readers' }, alice.id);
    await act(bob, { type: 'Join', target: serverGroup.id });
    await act(bob, { type: 'Join', target: publicGroup.id });
    const post = await act(bob, {
      type: 'Create',
      objectType: 'Post',
      to: serverGroup.id,
      object: { content: 'members only words' },
    });
    expect(post.status).toBe(201);
    serverPostId = post.body.createdId!;
  });

  test("group posts are read by the group's audience: a server group's by every local user, not by anonymous (404: the group is not theirs to see); public groups are open", async () => {
    const asBob = await api.get<Collection>(`/groups/${serverGroup.id}/posts`, { token: bob.token });
    expect(asBob.status).toBe(200);
    expect(ids(asBob.body)).toEqual([serverPostId]);
    const asCarol = await api.get<Collection>(`/groups/${serverGroup.id}/posts`, { token: carol.token });
    expect(asCarol.status).toBe(200);
    expect(ids(asCarol.body)).toEqual([serverPostId]);
    expect((await api.get(`/groups/${serverGroup.id}/posts`)).status).toBe(404);
    // Only members may post to the group at all.
    expect(
      (
        await act(carol, {
          type: 'Create',
          objectType: 'Post',
          to: serverGroup.id,
          object: { content: 'let me in' },
        })
      ).status,
    ).toBe(403);

    const pub = await act(bob, {
      type: 'Create',
      objectType: 'Post',
      to: publicGroup.id,
      object: { content: 'hello public group' },
    });
    const anon = await api.get<Collection>(`/groups/${publicGroup.id}/posts`);
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toEqual([pub.body.createdId]);
    expect((await api.get(`/groups/${publicGroup.id}/posts?type[$ne]=x`)).status).toBe(400);
    expect((await api.get('/groups/group:000000000000000000000000@social.test/posts')).status).toBe(404);
  });

  test("a group post opens for whoever may read the group's posts, with its replies; reading is not writing", async () => {
    type Shown = { id?: string; canReply?: boolean; canReact?: boolean; error?: string };
    const asCarol = await api.get<Shown>(`/posts/${serverPostId}`, { token: carol.token });
    expect(asCarol.status).toBe(200);
    expect(asCarol.body).toMatchObject({ id: serverPostId, canReply: false, canReact: false });
    expect((await api.get(`/posts/${serverPostId}/replies`, { token: carol.token })).status).toBe(200);
    expect((await api.get(`/posts/${serverPostId}`)).status).toBe(404);
    expect((await api.get(`/posts/${serverPostId}/replies`)).status).toBe(404);
    const reply = await act(carol, {
      type: 'Reply',
      objectType: 'Reply',
      to: serverPostId,
      object: { type: 'Reply', source: { content: 'me too' } },
    });
    expect(reply.status).toBe(403);

    const pub = await act(bob, {
      type: 'Create',
      objectType: 'Post',
      to: publicGroup.id,
      object: { content: 'open words' },
    });
    expect((await api.get<Shown>(`/posts/${pub.body.createdId}`)).status).toBe(200);

    // A group only its owner may see: its posts stay with its members.
    const hidden = await act(alice, {
      type: 'Create',
      objectType: 'Post',
      to: privateGroup.id,
      object: { content: 'private group words' },
    });
    expect(hidden.status).toBe(201);
    expect((await api.get(`/posts/${hidden.body.createdId}`, { token: alice.token })).status).toBe(200);
    expect((await api.get(`/posts/${hidden.body.createdId}`, { token: carol.token })).status).toBe(404);
    expect((await api.get(`/groups/${privateGroup.id}/posts`, { token: carol.token })).status).toBe(404);
  });

  test('GET /groups tiers: anonymous @public; local users also @domain; private groups to their audience', async () => {
    const anon = await api.get<Collection>('/groups?limit=100');
    expect(anon.body.type).toBe('OrderedCollection');
    expect(ids(anon.body)).toContain(publicGroup.id);
    expect(ids(anon.body)).not.toContain(serverGroup.id);
    expect(ids(anon.body)).not.toContain(privateGroup.id);
    const local = await api.get<Collection<{ id: string; name: string; memberCount: number; _id?: unknown }>>(
      '/groups?limit=100',
      { token: carol.token },
    );
    expect(ids(local.body)).toEqual(expect.arrayContaining([publicGroup.id, serverGroup.id]));
    expect(ids(local.body)).not.toContain(privateGroup.id);
    expect(local.body.orderedItems[0]).not.toHaveProperty('_id');
    expect(local.body.orderedItems[0]).not.toHaveProperty('circles');
    const own = await api.get<Collection>('/groups?limit=100', { token: alice.token });
    expect(ids(own.body)).toContain(privateGroup.id);
  });

  test('GET /groups/:id and /members follow the group audience', async () => {
    expect((await detail(publicGroup)).status).toBe(200);
    expect((await detail(publicGroup)).body.item).toMatchObject({
      isMember: false,
      isAdmin: false,
      isPending: false,
    });
    expect((await detail(serverGroup, carol)).status).toBe(200);
    expect((await detail(serverGroup)).status).toBe(404);
    expect((await detail(privateGroup, carol)).status).toBe(404);
    expect((await detail(privateGroup, alice)).status).toBe(200);
    expect((await api.get(`/groups/${privateGroup.id}/members`, { token: carol.token })).status).toBe(404);
    expect((await api.get(`/groups/${serverGroup.id}/members`)).status).toBe(404);
    const members = await api.get<Collection>(`/groups/${serverGroup.id}/members`, { token: carol.token });
    expect(ids(members.body)).toEqual([alice.id, bob.id]);
    const missing = await api.get<{ error: string }>('/groups/group:000000000000000000000000@social.test');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Not found');
    expect((await api.get('/groups/not-a-group')).status).toBe(404);
    // Joining a group one cannot see is the same as joining a missing one.
    expect((await act(carol, { type: 'Join', target: privateGroup.id })).status).toBe(404);
  });

  test('listUserGroups (GET /users/:id/groups): the groups a user is in, as far as the viewer may see', async () => {
    const ctx = createSocialContext(server.services[0]!.runtime!);
    const paging = parsePaging({ limit: '100' });
    const asCarol = await listUserGroups(
      ctx,
      await buildViewer(ctx.stores.circles, 'social.test', { id: carol.id }),
      bob.id,
      paging,
    );
    expect(asCarol.orderedItems.map((g) => g.id)).toEqual(
      expect.arrayContaining([publicGroup.id, serverGroup.id]),
    );
    const anon = await listUserGroups(ctx, ANONYMOUS, bob.id, paging);
    expect(anon.orderedItems.map((g) => g.id)).toContain(publicGroup.id);
    expect(anon.orderedItems.map((g) => g.id)).not.toContain(serverGroup.id);
    expect(anon.id).toBe(`${ctx.config.publicUrl}/users/${bob.id}/groups`);
    const alicesAsCarol = await listUserGroups(
      ctx,
      await buildViewer(ctx.stores.circles, 'social.test', { id: carol.id }),
      alice.id,
      paging,
    );
    expect(alicesAsCarol.orderedItems.map((g) => g.id)).not.toContain(privateGroup.id);
    const alicesOwn = await listUserGroups(
      ctx,
      await buildViewer(ctx.stores.circles, 'social.test', { id: alice.id }),
      alice.id,
      paging,
    );
    expect(alicesOwn.orderedItems.map((g) => g.id)).toContain(privateGroup.id);
    expect((await listUserGroups(ctx, ANONYMOUS, '@nobody@social.test', paging)).totalItems).toBe(0);
  });
});
