/**
 * The shared CRUD shape of spec 4.5 for /admin/posts, /admin/circles, /admin/groups and
 * /admin/pages, through the gateway: the guard on every route, list filters and `deleted`
 * handling, server-owned creates that go through the same timelines and events as users'
 * writes, ownership rules, soft and full delete with their cascades, restore, and bad input
 * that writes nothing.
 */
import { outbox, registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let bob: Actor;
let aliceFollowing: string;
const SERVER = '@social.test';
const enc = encodeURIComponent;

type Row = Record<string, unknown> & { id: string };
interface Page {
  totalItems: number;
  orderedItems: Row[];
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'content_alice');
  bob = await registerActor(api, 'content_bob');
  aliceFollowing = (await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token })).body
    .user.following;
  // alice follows the server actor as she would follow anyone, so announcements reach her timeline.
  expect((await outbox(api, alice, { type: 'Add', target: aliceFollowing, object: SERVER })).status).toBe(
    201,
  );
});
afterAll(async () => {
  await server?.close();
});

const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
  api.call<T>(method, path, { token: admin, ...(body !== undefined ? { body } : {}) });
const list = (path: string) => call<Page>('GET', path);
const ids = (p: { body: Page }) => p.body.orderedItems.map((x) => x.id);
const timeline = async (circleId: string, token: string) =>
  (await api.get<Page>(`/circles/${enc(circleId)}/posts`, { token })).body.orderedItems.map((p) => p.id);

/** Requests that must change nothing: the number of stored items is the same after them. */
async function unchanged(path: string, requests: Array<() => Promise<{ status: number }>>, status = 400) {
  const before = (await list(`${path}?deleted=include`)).body.totalItems;
  for (const r of requests) expect((await r()).status).toBe(status);
  expect((await list(`${path}?deleted=include`)).body.totalItems).toBe(before);
}

describe('guard', () => {
  test('anonymous → 401 and non-admin → 403 on every route of every group', async () => {
    const unknown = enc('post:000000000000000000000000@social.test');
    for (const group of ['posts', 'circles', 'groups', 'pages', 'sections', 'recommendations']) {
      const routes: Array<[string, string, unknown?]> = [
        ['GET', `/admin/${group}`],
        ['GET', `/admin/${group}/${unknown}`],
        ['POST', `/admin/${group}`, { name: 'x', title: 'x', source: 'x' }],
        ['PATCH', `/admin/${group}/${unknown}`, { name: 'y' }],
        ['DELETE', `/admin/${group}/${unknown}`],
        ['POST', `/admin/${group}/${unknown}/restore`],
      ];
      for (const [method, path, body] of routes) {
        const anon = await api.call(method, path, body === undefined ? {} : { body });
        const user = await api.call(method, path, {
          token: alice.token,
          ...(body === undefined ? {} : { body }),
        });
        expect([method, path, anon.status, user.status]).toEqual([method, path, 401, 403]);
      }
    }
  });
});

describe('/admin/posts', () => {
  let announcement: string;
  let bobPublic: string;
  let bobCircle: string;

  beforeAll(async () => {
    bobPublic = (
      await outbox(api, bob, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'bob in public' },
      })
    ).body.createdId!;
    bobCircle = (
      await outbox(api, bob, {
        type: 'Create',
        objectType: 'Post',
        to: (await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token })).body.user
          .following,
        object: { content: 'bob for friends' },
      })
    ).body.createdId!;
  });

  test('an announcement is owned by the server actor and reaches the timelines and notifications of its followers', async () => {
    const res = await call<{ ok: boolean; post: Row }>('POST', '/admin/posts', {
      type: 'Article',
      title: 'Maintenance',
      source: 'We upgrade **tonight**.',
    });
    expect(res.status).toBe(201);
    expect(res.body.ok).toBe(true);
    expect(res.body.post).toMatchObject({
      actorId: SERVER,
      to: '@public',
      type: 'Article',
      title: 'Maintenance',
    });
    expect(String(res.body.post.body)).toContain('<strong>tonight</strong>');
    expect(res.body.post).not.toHaveProperty('_id');
    announcement = res.body.post.id;
    expect(await timeline(aliceFollowing, alice.token)).toContain(announcement);
    // The same post.created event as a user's post: alice hears about new posts in her feed.
    await waitFor(async () => {
      const n = await api.get<{ count: number }>('/notifications/unread/count', { token: alice.token });
      return n.body.count > 0;
    }, 15_000);
    const log = await list(
      `/admin/activities?actorId=${enc((await api.get<{ user: { id: string } }>('/auth/me', { token: admin })).body.user.id)}`,
    );
    expect(log.body.orderedItems.some((a) => a.objectId === announcement && a.type === 'Create')).toBe(true);
  });

  test('list: public and server tiers by default, visibility=all adds circle posts; type and actorId filter', async () => {
    const all = ids(await list('/admin/posts'));
    expect(all).toEqual(expect.arrayContaining([announcement, bobPublic]));
    expect(all).not.toContain(bobCircle);
    expect(ids(await list('/admin/posts?visibility=all'))).toContain(bobCircle);
    expect(ids(await list(`/admin/posts?actorId=${enc(SERVER)}`))).toEqual([announcement]);
    expect(ids(await list('/admin/posts?type=Article'))).toEqual([announcement]);
    expect((await call('GET', `/admin/posts/${enc(bobCircle)}`)).body).toMatchObject({
      post: { id: bobCircle },
    });
  });

  test('update: only server announcements; markdown re-rendered; bad input 400 naming the field', async () => {
    const ok = await call<{ post: Row }>('PATCH', `/admin/posts/${enc(announcement)}`, {
      source: 'Done _now_',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.post).toMatchObject({ source: { content: 'Done _now_' } });
    expect(String(ok.body.post.body)).toContain('<em>now</em>');
    const theirs = await call('PATCH', `/admin/posts/${enc(bobPublic)}`, { source: 'edited by admin' });
    expect(theirs.status).toBe(403);
    expect(
      (await call<{ post: Row }>('GET', `/admin/posts/${enc(bobPublic)}`)).body.post.source,
    ).toMatchObject({
      content: 'bob in public',
    });
    const badType = await call<{ error: string }>('PATCH', `/admin/posts/${enc(announcement)}`, { title: 5 });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toContain('title');
    const badTo = await call<{ error: string }>('PATCH', `/admin/posts/${enc(announcement)}`, {
      to: aliceFollowing,
    });
    expect(badTo.status).toBe(400);
    expect(badTo.body.error).toContain('to');
    expect((await call('GET', `/admin/posts/${enc(announcement)}`)).body).toMatchObject({
      post: { to: '@public' },
    });
  });

  test('create refuses bad input and writes nothing; unknown ids 404', async () => {
    await unchanged('/admin/posts', [
      () => call('POST', '/admin/posts', {}),
      () => call('POST', '/admin/posts', { source: 'x', type: 'Bogus' }),
      () => call('POST', '/admin/posts', { source: 'x', to: aliceFollowing }),
      () => call('POST', '/admin/posts', { source: 'x', tags: 'not-a-list' }),
      // The post fields of POST /outbox, checked by the same schema: an image is a URL or our media.
      () => call('POST', '/admin/posts', { source: 'x', image: 'javascript:alert(1)' }),
    ]);
    const unknown = enc('post:000000000000000000000000@social.test');
    expect((await call('GET', `/admin/posts/${unknown}`)).status).toBe(404);
    expect((await call('DELETE', `/admin/posts/${unknown}`)).status).toBe(404);
    expect((await call('POST', `/admin/posts/${unknown}/restore`)).status).toBe(404);
    expect((await call('GET', '/admin/posts/%7B%24ne%3A1%7D')).status).toBe(400);
    expect((await call('GET', '/admin/posts?deleted=maybe')).status).toBe(400);
    expect((await call('DELETE', `/admin/posts/${enc(announcement)}?fullDelete=yes`)).status).toBe(400);
    expect((await call('GET', `/admin/posts/${enc(announcement)}`)).body).toMatchObject({
      post: { deletedAt: null },
    });
  });

  test('soft delete leaves feeds and lists; deleted=true and include; restore brings it back; 409s', async () => {
    const del = await call<{ ok: boolean; post: Row }>('DELETE', `/admin/posts/${enc(announcement)}`);
    expect(del.status).toBe(200);
    expect(del.body.post).toMatchObject({ id: announcement, type: 'Tombstone' });
    expect(del.body.post.deletedAt).toBeTruthy();
    expect(await timeline(aliceFollowing, alice.token)).not.toContain(announcement);
    expect((await api.get(`/posts/${enc(announcement)}`)).status).toBe(404);
    expect(ids(await list('/admin/posts'))).not.toContain(announcement);
    expect(ids(await list('/admin/posts?deleted=true'))).toEqual([announcement]);
    expect(ids(await list('/admin/posts?deleted=include'))).toEqual(
      expect.arrayContaining([announcement, bobPublic]),
    );
    expect((await call('DELETE', `/admin/posts/${enc(announcement)}`)).status).toBe(409);

    const back = await call<{ post: Row }>('POST', `/admin/posts/${enc(announcement)}/restore`);
    expect(back.status).toBe(200);
    expect(back.body.post).toMatchObject({ id: announcement, type: 'Article', deletedAt: null });
    expect(await timeline(aliceFollowing, alice.token)).toContain(announcement);
    expect((await call('POST', `/admin/posts/${enc(announcement)}/restore`)).status).toBe(409);
  });

  test('moderation: any post can be deleted and restored, but not one its author withdrew', async () => {
    expect((await call('DELETE', `/admin/posts/${enc(bobPublic)}`)).status).toBe(200);
    expect((await call('POST', `/admin/posts/${enc(bobPublic)}/restore`)).status).toBe(200);
    expect((await outbox(api, bob, { type: 'Delete', target: bobPublic })).status).toBe(201);
    const refused = await call('POST', `/admin/posts/${enc(bobPublic)}/restore`);
    expect(refused.status).toBe(403);
    expect(ids(await list('/admin/posts?deleted=true'))).toContain(bobPublic);
  });

  test('full delete removes the post and its timeline rows', async () => {
    const res = await call('DELETE', `/admin/posts/${enc(announcement)}?fullDelete=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, hardDeleted: true });
    expect((await call('GET', `/admin/posts/${enc(announcement)}`)).status).toBe(404);
    expect(await timeline(aliceFollowing, alice.token)).not.toContain(announcement);
  });
});

describe('/admin/circles', () => {
  let staff: string;

  test('create a server circle; list filters server, type and deleted', async () => {
    const res = await call<{ circle: Row }>('POST', '/admin/circles', {
      name: 'Staff picks',
      summary: 'Our favourites',
    });
    expect(res.status).toBe(201);
    expect(res.body.circle).toMatchObject({
      name: 'Staff picks',
      actorId: SERVER,
      to: '@public',
      type: 'Circle',
    });
    staff = res.body.circle.id;
    expect(ids(await list('/admin/circles?server=true'))).toContain(staff);
    expect(ids(await list('/admin/circles?server=true'))).not.toContain(aliceFollowing);
    expect(ids(await list('/admin/circles'))).toEqual(expect.arrayContaining([staff, aliceFollowing]));
    const system = await list('/admin/circles?type=System');
    expect(system.body.orderedItems.every((c) => c.type === 'System')).toBe(true);
    expect(ids(system)).not.toContain(staff);
    expect((await call('GET', '/admin/circles?type=Bogus')).status).toBe(400);
    await unchanged('/admin/circles', [
      () => call('POST', '/admin/circles', {}),
      () => call('POST', '/admin/circles', { name: 42 }),
      () => call('POST', '/admin/circles', { name: 'x', to: '@nobody@social.test' }),
    ]);
  });

  test('edit only server circles; the role circles are never deleted', async () => {
    const ok = await call<{ circle: Row }>('PATCH', `/admin/circles/${enc(staff)}`, {
      name: 'Staff favourites',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.circle).toMatchObject({ name: 'Staff favourites' });
    expect((await call('PATCH', `/admin/circles/${enc(aliceFollowing)}`, { name: 'mine now' })).status).toBe(
      403,
    );
    expect((await call('DELETE', `/admin/circles/${enc(aliceFollowing)}`)).status).toBe(403);
    const settings = await call<{ settings: Array<{ name: string; value: unknown }> }>(
      'GET',
      '/admin/settings',
    );
    const adminCircle = String(settings.body.settings.find((s) => s.name === 'adminCircle')!.value);
    expect((await call('DELETE', `/admin/circles/${enc(adminCircle)}?fullDelete=true`)).status).toBe(403);
    expect((await call('GET', `/admin/circles/${enc(adminCircle)}`)).status).toBe(200);
  });

  test('soft delete takes the timeline with it, restore rebuilds it, full delete removes it', async () => {
    expect((await outbox(api, alice, { type: 'Add', target: staff, object: alice.id })).status).toBe(403);
    const added = await api.call('POST', '/outbox', {
      token: admin,
      body: { type: 'Add', target: staff, object: alice.id },
    });
    expect(added.status).toBe(201);
    const post = (
      await outbox(api, alice, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'staff pick' },
      })
    ).body.createdId!;
    expect(await timeline(staff, bob.token)).toContain(post);

    expect((await call('DELETE', `/admin/circles/${enc(staff)}`)).status).toBe(200);
    expect((await api.get(`/circles/${enc(staff)}/posts`, { token: bob.token })).status).toBe(404);
    expect(ids(await list('/admin/circles?deleted=true'))).toContain(staff);
    expect((await call('DELETE', `/admin/circles/${enc(staff)}`)).status).toBe(409);

    expect((await call('POST', `/admin/circles/${enc(staff)}/restore`)).status).toBe(200);
    expect(await timeline(staff, bob.token)).toContain(post);

    expect((await call('DELETE', `/admin/circles/${enc(staff)}?fullDelete=true`)).body).toEqual({
      ok: true,
      hardDeleted: true,
    });
    expect((await call('GET', `/admin/circles/${enc(staff)}`)).status).toBe(404);
  });
});

describe('/admin/groups', () => {
  let serverGroup: Row;
  let aliceGroup: string;

  test('create a server group with its circles; list filters rsvpPolicy', async () => {
    const res = await call<{ group: Row }>('POST', '/admin/groups', {
      name: 'Town hall',
      rsvpPolicy: 'approvalOnly',
      to: '@social.test',
    });
    expect(res.status).toBe(201);
    serverGroup = res.body.group;
    expect(serverGroup).toMatchObject({
      name: 'Town hall',
      actorId: SERVER,
      to: SERVER,
      rsvpPolicy: 'approvalOnly',
      memberCount: 0,
    });
    const circles = serverGroup.circles as Record<string, string>;
    expect(Object.keys(circles).sort()).toEqual(['admins', 'blocked', 'members', 'moderators', 'pending']);
    aliceGroup = (
      await outbox(api, alice, {
        type: 'Create',
        objectType: 'Group',
        to: '@public',
        object: { name: 'Knitting' },
      })
    ).body.createdId!;
    expect(ids(await list('/admin/groups?rsvpPolicy=approvalOnly'))).toEqual([serverGroup.id]);
    expect(ids(await list('/admin/groups'))).toEqual(expect.arrayContaining([serverGroup.id, aliceGroup]));
    expect((await call('GET', '/admin/groups?rsvpPolicy=sometimes')).status).toBe(400);
    await unchanged('/admin/groups', [
      () => call('POST', '/admin/groups', { description: 'no name' }),
      () => call('POST', '/admin/groups', { name: 'x', rsvpPolicy: 'whenever' }),
      () => call('POST', '/admin/groups', { name: 'x', location: { lat: 'north' } }),
    ]);
  });

  test('edit only server groups; any group can be moderated; an owner-deleted group stays deleted', async () => {
    expect(
      (await call('PATCH', `/admin/groups/${enc(serverGroup.id)}`, { rsvpPolicy: 'open' })).body,
    ).toMatchObject({
      group: { rsvpPolicy: 'open' },
    });
    expect((await call('PATCH', `/admin/groups/${enc(aliceGroup)}`, { name: 'Mine' })).status).toBe(403);
    expect((await call('DELETE', `/admin/groups/${enc(aliceGroup)}`)).status).toBe(200);
    expect((await api.get(`/groups/${enc(aliceGroup)}`)).status).toBe(404);
    expect((await call('POST', `/admin/groups/${enc(aliceGroup)}/restore`)).status).toBe(200);
    expect((await api.get(`/groups/${enc(aliceGroup)}`)).status).toBe(200);
    expect((await outbox(api, alice, { type: 'Delete', target: aliceGroup })).status).toBe(201);
    expect((await call('POST', `/admin/groups/${enc(aliceGroup)}/restore`)).status).toBe(403);
  });

  test('full delete removes the group and its circles', async () => {
    const circles = Object.values(serverGroup.circles as Record<string, string>);
    expect((await call('DELETE', `/admin/groups/${enc(serverGroup.id)}?fullDelete=true`)).body).toEqual({
      ok: true,
      hardDeleted: true,
    });
    expect((await call('GET', `/admin/groups/${enc(serverGroup.id)}`)).status).toBe(404);
    for (const c of circles) expect((await call('GET', `/admin/circles/${enc(c)}`)).status).toBe(404);
  });
});

describe('/admin/pages', () => {
  let about: Row;

  test('create, find by id or slug, list in order', async () => {
    const res = await call<{ page: Row }>('POST', '/admin/pages', {
      title: 'About us',
      source: '# Who we are',
      order: 2,
    });
    expect(res.status).toBe(201);
    about = res.body.page;
    expect(about).toMatchObject({ slug: 'about-us', actorId: SERVER, to: '@public', type: 'Page', order: 2 });
    expect(String(about.body)).toContain('<h1>Who we are</h1>');
    const first = (
      await call<{ page: Row }>('POST', '/admin/pages', { title: 'Rules', source: 'Be kind', order: 1 })
    ).body.page;
    expect((await call('GET', '/admin/pages/about-us')).body).toMatchObject({ page: { id: about.id } });
    expect(ids(await list('/admin/pages')).slice(0, 2)).toEqual([first.id, about.id]);
    expect((await api.get('/pages/about-us')).status).toBe(200);
    await unchanged('/admin/pages', [
      () => call('POST', '/admin/pages', { source: 'no title' }),
      () => call('POST', '/admin/pages', { title: 'x', order: 'first' }),
      () =>
        call('POST', '/admin/pages', { title: 'x', parentId: 'page:000000000000000000000000@social.test' }),
    ]);
  });

  test('update, soft delete, restore, full delete', async () => {
    const upd = await call<{ page: Row }>('PATCH', `/admin/pages/${enc(about.id)}`, {
      title: 'About',
      slug: 'about',
    });
    expect(upd.body.page).toMatchObject({ title: 'About', slug: 'about' });
    expect((await call('PATCH', `/admin/pages/${enc(about.id)}`, { order: 'last' })).status).toBe(400);
    expect((await call('DELETE', `/admin/pages/${enc(about.id)}`)).status).toBe(200);
    expect((await api.get('/pages/about')).status).toBe(404);
    expect(ids(await list('/admin/pages?deleted=true'))).toEqual([about.id]);
    expect((await call('POST', `/admin/pages/${enc(about.id)}/restore`)).body).toMatchObject({
      page: { type: 'Page' },
    });
    expect((await api.get('/pages/about')).status).toBe(200);
    expect((await call('DELETE', `/admin/pages/${enc(about.id)}?fullDelete=true`)).body).toEqual({
      ok: true,
      hardDeleted: true,
    });
    expect((await call('GET', `/admin/pages/${enc(about.id)}`)).status).toBe(404);
  });
});
