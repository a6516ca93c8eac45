/**
 * The library: server pages (spec 4.3, admin-only creation, audience-checked detail) and
 * bookmarks (folder depth, visibility through the folder chain, visible roots only).
 */
import { randomUUID } from 'node:crypto';
import { buildViewer } from '@agora/common/audience';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { listUserBookmarks } from '../../services/social/src/views/bookmarks';
import { createSocialContext } from '../../services/social/src/context';

type Item = {
  id: string;
  slug?: string;
  title?: string;
  to?: string;
  type?: string;
  url?: string;
  body?: string;
};
type Collection = { type: string; totalItems: number; orderedItems: Item[] };

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: Actor, alice: Actor, bob: Actor;

function act(actor: Actor | undefined, activity: unknown) {
  return api.post<{ createdId?: string; result?: Item & Record<string, unknown>; error?: string }>(
    '/outbox',
    activity,
    {
      headers: { 'idempotency-key': randomUUID() },
      ...(actor ? { token: actor.token } : {}),
    },
  );
}

async function created(actor: Actor, activity: Record<string, unknown>): Promise<Item> {
  const res = await act(actor, activity);
  if (res.status !== 201)
    throw new Error(`${JSON.stringify(activity)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result!;
}

const page = (object: Record<string, unknown>, to = '@public') =>
  created(admin, { type: 'Create', objectType: 'Page', to, object });
const bookmark = (actor: Actor, object: Record<string, unknown>, to = '@public') =>
  created(actor, { type: 'Create', objectType: 'Bookmark', to, object });
const ids = (c: Collection) => c.orderedItems.map((x) => x.id);
const repos = () => server.services[0]!.runtime!.repos;

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  [alice, bob] = (await Promise.all(['alice', 'bob'].map((n) => registerActor(api, n)))) as [Actor, Actor];
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = { id: login.body.user.id, username: ADMIN.username, token: login.body.token };
});
afterAll(async () => {
  await server?.close();
});

describe('pages', () => {
  let about: Item, rules: Item, aboutAgain: Item, team: Item, hidden: Item, faq: Item;

  beforeAll(async () => {
    about = await page({
      title: 'About us',
      source: { content: 'We are **friendly**' },
      order: 2,
      tags: ['info'],
    });
    rules = await page({ title: 'Rules', content: 'Be kind', order: 1, tags: ['info', 'policy'] });
    faq = await page({ title: 'FAQ', content: 'Questions', order: 2 });
    aboutAgain = await page({ title: 'About us', content: 'A second page with the same title', order: 3 });
    team = await page({ title: 'Team notes', content: 'Local only', tags: ['info'] }, '@social.test');
    hidden = await page({ title: 'Draft', content: 'Not yet' }, admin.id);
  });

  test('created by admins as server content, with a unique slug and rendered body', () => {
    expect(about.id).toMatch(/^page:[0-9a-f]{24}@social\.test$/);
    expect(about).toMatchObject({
      slug: 'about-us',
      actorId: admin.id,
      server: '@social.test',
      to: '@public',
    });
    expect(about.body).toContain('<strong>friendly</strong>');
    expect(aboutAgain.slug).toBe('about-us-2');
    expect(about.url).toMatch(/\/pages\/about-us$/);
  });

  test('non-admins cannot create pages; bad input is a 400 naming the field', async () => {
    const denied = await act(alice, {
      type: 'Create',
      objectType: 'Page',
      to: '@public',
      object: { title: 'Mine', content: 'x' },
    });
    expect(denied.status).toBe(403);
    expect(
      (await act(undefined, { type: 'Create', objectType: 'Page', object: { title: 'Mine', content: 'x' } }))
        .status,
    ).toBe(401);
    const noTitle = await act(admin, { type: 'Create', objectType: 'Page', object: { content: 'x' } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error).toMatch(/object\.title/);
    expect(
      (
        await act(admin, {
          type: 'Create',
          objectType: 'Page',
          object: { title: 'x', content: 'y', order: { $gt: 1 } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await act(admin, {
          type: 'Create',
          objectType: 'Page',
          object: { title: 'x', content: 'y', parentId: 'page:000000000000000000000000@social.test' },
        })
      ).status,
    ).toBe(400);
  });

  test('GET /pages lists public pages only, by order then newest, with tag and serverId filters', async () => {
    const all = await api.get<Collection>('/pages?limit=100');
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([rules.id, faq.id, about.id, aboutAgain.id]);
    expect(ids((await api.get<Collection>('/pages', { token: alice.token })).body)).not.toContain(team.id);
    expect(ids((await api.get<Collection>('/pages?tag=policy')).body)).toEqual([rules.id]);
    expect(ids((await api.get<Collection>('/pages?tag=info')).body)).toEqual([rules.id, about.id]);
    expect((await api.get<Collection>('/pages?serverId=@social.test')).body.totalItems).toBe(4);
    expect((await api.get<Collection>('/pages?serverId=@elsewhere.example')).body.totalItems).toBe(0);
    expect((await api.get('/pages?tag[$ne]=x')).status).toBe(400);
    expect((await api.get('/pages?serverId[$gt]=')).status).toBe(400);
  });

  test('GET /pages/:id by id or slug; non-public pages by audience; incompatible remote domains refused', async () => {
    const byId = await api.get<{ item: Item }>(`/pages/${about.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.item).toMatchObject({ id: about.id, title: 'About us' });
    expect(byId.body.item).not.toHaveProperty('_id');
    expect((await api.get<{ item: Item }>('/pages/about-us-2')).body.item.id).toBe(aboutAgain.id);
    expect((await api.get<{ item: Item }>('/pages/rules?domain=social.test')).body.item.id).toBe(rules.id);
    const remote = await api.get<{ error: string }>('/pages/rules?domain=elsewhere.example');
    expect(remote.status).toBe(400);
    // Not a compatible server (its NodeInfo cannot be read): refused (docs/federation.md, "Remote pages").
    expect(remote.body.error).toBe('domain: elsewhere.example is not a compatible server');
    // The reference served any page to anyone who knew its slug.
    expect((await api.get('/pages/team-notes')).status).toBe(404);
    expect((await api.get('/pages/team-notes', { token: alice.token })).status).toBe(200);
    expect((await api.get(`/pages/${hidden.id}`, { token: alice.token })).status).toBe(404);
    expect((await api.get(`/pages/${hidden.id}`, { token: admin.token })).status).toBe(200);
    expect((await api.get('/pages/no-such-page')).status).toBe(404);
  });

  test('a deleted page is gone from the list and from detail', async () => {
    await repos().pages.set(faq.id, { deletedAt: new Date() });
    expect((await api.get(`/pages/${faq.id}`)).status).toBe(404);
    expect((await api.get('/pages/faq')).status).toBe(404);
    expect(ids((await api.get<Collection>('/pages?limit=100')).body)).not.toContain(faq.id);
  });
});

describe('bookmarks', () => {
  let publicLink: Item, privateFolder: Item, hiddenInside: Item, privateRoot: Item;
  const folders: Item[] = [];

  beforeAll(async () => {
    publicLink = await bookmark(alice, { href: 'https://example.org/article' });
    privateFolder = await bookmark(alice, { type: 'Folder', title: 'Secret stash' }, alice.id);
    hiddenInside = await bookmark(alice, {
      href: 'https://example.org/hidden',
      parentFolder: privateFolder.id,
    });
    privateRoot = await bookmark(alice, { target: publicLink.id, title: 'just mine' }, alice.id);
  });

  test('a bookmark defaults its title to its link and gets a url', () => {
    expect(publicLink.id).toMatch(/^bookmark:[0-9a-f]{24}@social\.test$/);
    expect(publicLink).toMatchObject({
      type: 'Bookmark',
      title: 'https://example.org/article',
      to: '@public',
      actorId: alice.id,
    });
    expect(publicLink.url).toContain(encodeURIComponent(publicLink.id));
  });

  test('validation: link or target, http(s) only, folders need titles, no operators', async () => {
    const create = (object: unknown, to: unknown = '@public') =>
      act(alice, { type: 'Create', objectType: 'Bookmark', to, object });
    const empty = await create({ title: 'nothing' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/object\.href/);
    expect((await create({ href: 'javascript:alert(1)' })).status).toBe(400);
    expect((await create({ type: 'Folder' })).status).toBe(400);
    expect((await create({ href: 'https://example.org', parentFolder: { $ne: null } })).status).toBe(400);
    expect((await create({ href: 'https://example.org' }, { $ne: null })).status).toBe(400);
    expect((await create({ target: 'not an id' })).status).toBe(400);
    expect((await create({ target: 'post:000000000000000000000000@social.test' })).status).toBe(404);
    expect(
      (
        await act(undefined, {
          type: 'Create',
          objectType: 'Bookmark',
          object: { href: 'https://example.org' },
        })
      ).status,
    ).toBe(401);
  });

  test("items go only into one's own folders", async () => {
    const intoOthers = await act(bob, {
      type: 'Create',
      objectType: 'Bookmark',
      object: { href: 'https://example.org/b', parentFolder: privateFolder.id },
    });
    expect(intoOthers.status).toBe(400);
    expect(intoOthers.body.error).toMatch(/object\.parentFolder/);
    expect(
      (
        await act(alice, {
          type: 'Create',
          objectType: 'Bookmark',
          object: { href: 'https://example.org/c', parentId: publicLink.id },
        })
      ).status,
    ).toBe(400);
  });

  test('folders nest five deep; a sixth level is refused, items still fit in the fifth', async () => {
    let parent: string | undefined;
    for (let level = 1; level <= 5; level++) {
      const folder = await bookmark(alice, {
        type: 'Folder',
        title: `Level ${level}`,
        ...(parent ? { parentFolder: parent } : {}),
      });
      folders.push(folder);
      parent = folder.id;
    }
    const sixth = await act(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      object: { type: 'Folder', title: 'Level 6', parentFolder: parent },
    });
    expect(sixth.status).toBe(400);
    expect(sixth.body.error).toMatch(/5 deep/);
    const deep = await bookmark(alice, { href: 'https://example.org/deep', parentId: parent });
    expect((await api.get(`/bookmarks/${deep.id}`, { token: bob.token })).status).toBe(200);
  });

  test('a bookmark in a private folder is invisible to others (404), whatever its own audience', async () => {
    const asOwner = await api.get<{ item: Item }>(`/bookmarks/${hiddenInside.id}`, { token: alice.token });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.item.id).toBe(hiddenInside.id);
    const asBob = await api.get<{ error: string }>(`/bookmarks/${hiddenInside.id}`, { token: bob.token });
    expect(asBob.status).toBe(404);
    expect(asBob.body.error).toBe('Not found');
    expect((await api.get(`/bookmarks/${hiddenInside.id}`)).status).toBe(404);
    expect((await api.get(`/bookmarks/${privateFolder.id}`, { token: bob.token })).status).toBe(404);
    expect((await api.get<{ item: Item }>(`/bookmarks/${publicLink.id}`)).body.item).toMatchObject({
      id: publicLink.id,
    });
    expect((await api.get('/bookmarks/bookmark:000000000000000000000000@social.test')).status).toBe(404);
    // Remote modes are covered with a real second server (two-servers.test.ts); an unknown mode is a 400.
    expect((await api.get(`/bookmarks/${publicLink.id}?mode=sideways`)).status).toBe(400);
  });

  test('a deleted folder hides everything below it from others', async () => {
    const top = await bookmark(bob, { type: 'Folder', title: 'Will go' });
    const inside = await bookmark(bob, { href: 'https://example.org/inside', parentFolder: top.id });
    expect((await api.get(`/bookmarks/${inside.id}`, { token: alice.token })).status).toBe(200);
    await repos().bookmarks.set(top.id, { deletedAt: new Date() });
    expect((await api.get(`/bookmarks/${inside.id}`, { token: alice.token })).status).toBe(404);
  });

  test('GET /bookmarks lists the visible root items of every user', async () => {
    const anon = await api.get<Collection>('/bookmarks?limit=100');
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toContain(publicLink.id);
    expect(ids(anon.body)).toContain(folders[0]!.id);
    expect(ids(anon.body)).not.toContain(folders[1]!.id);
    expect(ids(anon.body)).not.toContain(hiddenInside.id);
    expect(ids(anon.body)).not.toContain(privateFolder.id);
    expect(ids(anon.body)).not.toContain(privateRoot.id);
    const own = await api.get<Collection>('/bookmarks?limit=100', { token: alice.token });
    expect(ids(own.body)).toEqual(expect.arrayContaining([privateFolder.id, privateRoot.id]));
    expect(ids(own.body)).not.toContain(hiddenInside.id);
    expect((await api.get('/bookmarks?type[$ne]=x')).status).toBe(400);
    expect(ids((await api.get<Collection>('/bookmarks?type=Folder&limit=100')).body)).not.toContain(
      publicLink.id,
    );
  });

  test('listUserBookmarks (GET /users/:id/bookmarks): flat for the owner, roots and folders by audience for others', async () => {
    const ctx = createSocialContext(server.services[0]!.runtime!);
    const viewerOf = async (a: Actor | undefined) =>
      buildViewer(ctx.stores.circles, 'social.test', a ? { id: a.id } : undefined);
    const owner = await listUserBookmarks(ctx, await viewerOf(alice), alice.id, { limit: '100' });
    expect(owner.orderedItems.map((x) => x.id)).toEqual(
      expect.arrayContaining([hiddenInside.id, privateFolder.id, folders[4]!.id]),
    );
    expect(owner.id).toBe(`${ctx.config.publicUrl}/users/${alice.id}/bookmarks?limit=100`);
    const other = await listUserBookmarks(ctx, await viewerOf(bob), alice.id, { limit: '100' });
    const otherIds = other.orderedItems.map((x) => x.id);
    expect(otherIds).toContain(publicLink.id);
    expect(otherIds).not.toContain(privateFolder.id);
    expect(otherIds).not.toContain(folders[1]!.id);
    const inFolder = await listUserBookmarks(ctx, await viewerOf(undefined), alice.id, {
      parentFolder: folders[0]!.id,
    });
    expect(inFolder.orderedItems.map((x) => x.id)).toEqual([folders[1]!.id]);
    await expect(
      listUserBookmarks(ctx, await viewerOf(bob), alice.id, { parentFolder: privateFolder.id }),
    ).rejects.toThrow('Not found');
    await expect(
      listUserBookmarks(ctx, await viewerOf(bob), alice.id, { parentFolder: { $ne: null } }),
    ).rejects.toThrow(/parentFolder/);
  });
});
