/**
 * Groups (behaviour-notes §3.8, §4.3): creation with five circles, Join under every rsvpPolicy,
 * approval and rejection by admins, Leave, admin-only Add/Remove and pending list. Group posts
 * read by the group's audience (ADR 0023) and the GET /groups audience tiers are in
 * groups-reading.test.ts; the shared world is test/harness/groups.ts.
 */
import type { client, TestServer } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import {
  act,
  bootGroups,
  closeGroups,
  createGroup,
  detail,
  groupsCircleOf,
  ids,
  published,
  type Collection,
} from '../harness/groups';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, dave: Actor;

beforeAll(async () => {
  ({
    server,
    api,
    actors: [alice, bob, carol, dave],
  } = await bootGroups());
});
afterAll(closeGroups);

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
