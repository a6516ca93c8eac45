/**
 * GET /search end to end (issue 12): prefix matching on folded words, `#tag`, kinds, and the
 * audience on every result. Each viewer (anonymous, a local non-member, a circle member, the
 * owner, a remote server signing its request) gets exactly what it may open, and every post it
 * gets opens for it at GET /posts/:id.
 */
import { signRequest } from '@agora/common/federation';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';

const PEER = 'peer.test';
let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor, bob: Actor, carol: Actor, admin: Actor;
const posts: Record<'pub' | 'friends' | 'abroad' | 'locals', string> = {
  pub: '',
  friends: '',
  abroad: '',
  locals: '',
};
let hiddenBookmark = '';
let folder = '';
let openBookmark = '';
let group = '';
let page = '';

async function created(actor: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await outbox(api, actor, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
}

let n = 0;
/** A GET signed by the peer server (each with its own query, as a signature is accepted once). */
function signedGet(path: string) {
  const p = `${path}${path.includes('?') ? '&' : '?'}n=${++n}`;
  const headers = signRequest({
    method: 'GET',
    url: `${server.url}${p}`,
    keyId: peer.keyId,
    privateKeyPem: peer.privateKeyPem,
  });
  return api.get<SearchBody>(p, { headers });
}

interface SearchBody {
  totalItems: number;
  orderedItems: Array<{ id: string; _searchType: string }>;
  error?: string;
}

async function search(q: string, who?: Actor, extra = ''): Promise<string[]> {
  const res = await api.get<SearchBody>(
    `/search?q=${encodeURIComponent(q)}${extra}`,
    who ? { token: who.token } : {},
  );
  if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((i) => i.id);
}

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
  api = client(server.url);
  [alice, bob, carol] = [
    await registerActor(api, 'alice'),
    await registerActor(api, 'bob'),
    await registerActor(api, 'carol'),
  ];
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = { id: login.body.user.id, username: ADMIN.username, token: login.body.token };
  const friends = await created(alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Friends' },
  });
  const abroad = await created(alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Abroad' },
  });
  await created(alice, { type: 'Add', target: friends, object: bob.id });
  await created(alice, { type: 'Add', target: abroad, object: `@${PEER}` });
  const post = (to: string, content: string, tags?: string[]) =>
    created(alice, {
      type: 'Create',
      objectType: 'Post',
      to,
      object: { content, ...(tags ? { tags } : {}) },
    });
  posts.pub = await post('@public', 'Harbour at sunset, from the pier', ['Photography']);
  posts.friends = await post(friends, 'Harbour party on Friday, friends only');
  posts.abroad = await post(abroad, 'Harbour news for the peer server');
  posts.locals = await post('@social.test', 'Harbour café reopens (locals)');
  folder = await created(alice, {
    type: 'Create',
    objectType: 'Bookmark',
    to: alice.id,
    object: { type: 'Folder', title: 'Private harbour stash' },
  });
  hiddenBookmark = await created(alice, {
    type: 'Create',
    objectType: 'Bookmark',
    to: '@public',
    object: {
      href: 'https://example.org/h',
      title: 'Harbour tides (inside a private folder)',
      parentFolder: folder,
    },
  });
  openBookmark = await created(alice, {
    type: 'Create',
    objectType: 'Bookmark',
    to: '@public',
    object: { href: 'https://example.org/t', title: 'Harbour timetable' },
  });
  group = await created(alice, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: 'Harbour Rowing Club' },
  });
  page = await created(admin, {
    type: 'Create',
    objectType: 'Page',
    to: '@public',
    object: { title: 'Harbour rules', content: 'Be kind.' },
  });
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test('each viewer finds exactly what it may open, remote servers included', async () => {
  const common = [posts.pub, openBookmark, group, page];
  expect(new Set(await search('harbour'))).toEqual(new Set(common));
  expect(new Set(await search('harbour', carol))).toEqual(new Set([...common, posts.locals]));
  expect(new Set(await search('harbour', bob))).toEqual(new Set([...common, posts.locals, posts.friends]));
  expect(new Set(await search('harbour', alice))).toEqual(
    new Set([...common, posts.locals, posts.friends, posts.abroad, hiddenBookmark, folder]),
  );
  const remote = await signedGet('/search?q=harbour');
  expect(remote.status).toBe(200);
  expect(new Set(remote.body.orderedItems.map((i) => i.id))).toEqual(new Set([...common, posts.abroad]));
  // The folder itself matches its owner's search too (“Private harbour stash”) but nobody else's.
  expect((await search('stash', bob)).length).toBe(0);
});

test('every post a viewer is shown opens for that viewer', async () => {
  for (const who of [undefined, carol, bob]) {
    const res = await api.get<SearchBody>('/search?q=harbour&type=posts', who ? { token: who.token } : {});
    expect(res.body.orderedItems.length).toBeGreaterThan(0);
    for (const item of res.body.orderedItems)
      expect((await api.get(`/posts/${item.id}`, who ? { token: who.token } : {})).status).toBe(200);
  }
});

test('prefixes of folded words match; #tag matches tags only', async () => {
  expect(await search('HARB sun')).toEqual([posts.pub]);
  expect(await search('cafe', carol)).toEqual([posts.locals]);
  expect(await search('#photo')).toEqual([posts.pub]);
  expect(await search('photography')).toEqual([]);
  const users = await api.get<SearchBody>('/search?q=ali&type=users');
  expect(users.body.orderedItems).toEqual([expect.objectContaining({ id: alice.id, _searchType: 'User' })]);
});

test('#tag also finds the hashtags written in a body, as the rendered hashtag link promises', async () => {
  const garden = await created(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'Planting day in the community #Garden, with `#notatag` in code' },
  });
  const shown = await api.get<{ body?: string }>(`/posts/${garden}`);
  // The body's link is the query that must find the post.
  expect(shown.body.body).toContain('href="/search?q=%23Garden"');
  expect(await search('#Garden')).toEqual([garden]);
  expect(await search('#gard')).toEqual([garden]);
  expect(await search('#notatag')).toEqual([]);
  await created(alice, { type: 'Update', target: garden, object: { content: 'Planting day, no tags now' } });
  expect(await search('#garden')).toEqual([]);
  await created(alice, { type: 'Delete', target: garden });
});

test('type and searchIn narrow the kinds', async () => {
  expect(await search('harbour', undefined, '&type=groups')).toEqual([group]);
  expect(new Set(await search('harbour', undefined, '&searchIn=pages,bookmarks'))).toEqual(
    new Set([page, openBookmark]),
  );
  expect(await search('harbour', undefined, '&type=Note')).toEqual([posts.pub]);
});

test('deleting and re-addressing are reflected at once', async () => {
  const temp = await created(alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'Ephemeral lighthouse' },
  });
  expect(await search('lighthouse')).toEqual([temp]);
  await created(alice, { type: 'Update', target: temp, object: { to: alice.id } });
  expect(await search('lighthouse')).toEqual([]);
  expect(await search('lighthouse', alice)).toEqual([temp]);
  await created(alice, {
    type: 'Update',
    target: temp,
    object: { content: 'Ephemeral beacon', to: '@public' },
  });
  expect(await search('beacon')).toEqual([temp]);
  expect(await search('lighthouse')).toEqual([]);
  await created(alice, { type: 'Delete', target: temp });
  expect(await search('lighthouse')).toEqual([]);
});

test('bad queries are 400s naming q or type', async () => {
  for (const path of [
    '/search',
    '/search?q=',
    '/search?q=a',
    `/search?q=${'x'.repeat(101)}`,
    '/search?q[$ne]=1',
    '/search?q=ok&type=planets',
  ]) {
    const res = await api.get<SearchBody>(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^(q|type):/);
  }
});

test('public posts from other servers are found once the inbox has them, and leave with their Delete', async () => {
  // The spec's server-to-server form, signed by the peer's server key (an ActivityPub activity
  // must be signed by its actor's own key: test/e2e/activitypub-fedify.test.ts).
  const author = `@erin@${PEER}`;
  const postId = `post:${'f0'.repeat(12)}@${PEER}`;
  const sent = await peer.send(`${server.url}/inbox`, {
    id: `http://${PEER}/activities/fjord-1`,
    type: 'Create',
    actorId: author,
    actor: { id: author, name: 'Erin' },
    to: ['@public'],
    object: {
      id: postId,
      type: 'Note',
      attributedTo: author,
      content: '<p>Fjord crossing at dawn</p>',
      to: ['@public'],
    },
  });
  expect(sent.status).toBe(202);
  await waitFor(async () => (await search('fjord')).includes(postId), 20_000);
  expect((await api.get<SearchBody>('/search?q=fjord')).body.orderedItems[0]).toMatchObject({
    id: postId,
    _searchType: 'Post',
  });
  const deleted = await peer.send(`${server.url}/inbox`, {
    id: `http://${PEER}/activities/fjord-2`,
    type: 'Delete',
    actorId: author,
    actor: author,
    object: postId,
  });
  expect(deleted.status).toBe(202);
  await waitFor(async () => (await search('fjord')).length === 0, 20_000);
});
