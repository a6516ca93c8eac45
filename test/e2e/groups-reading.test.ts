/**
 * Reading groups (behaviour-notes §3.8, §4.3; ADR 0023): group posts read by the group's audience,
 * the GET /groups audience tiers, a group and its members as far as the viewer may see, and the
 * groups a user is in. The shared world is test/harness/groups.ts; groups.test.ts has creation,
 * Join, Leave and the admins' Add/Remove.
 */
import { ANONYMOUS, buildViewer } from '@agora/common/audience';
import { parsePaging } from '@agora/common/http';
import type { client, TestServer } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import { listUserGroups } from '../../services/social/src/views/groups';
import { createSocialContext } from '../../services/social/src/context';
import {
  act,
  bootGroups,
  closeGroups,
  createGroup,
  detail,
  ids,
  type Collection,
  type Group,
} from '../harness/groups';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor;

beforeAll(async () => {
  ({
    server,
    api,
    actors: [alice, bob, carol],
  } = await bootGroups());
});
afterAll(closeGroups);

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
