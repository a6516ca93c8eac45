/**
 * Security tier, search and other tables keyed by client input (docs/security.md): the kind
 * tables of `GET /search` and of admin recommendations are reached by own keys only
 * (`__proto__`, `constructor`, … are unknown names like any other), `totalItems` counts only what
 * the viewer may open, and a deleted account's content leaves the index itself.
 */
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  server = await bootServer({ RATE_LIMITING_ENABLED: 'false' });
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
});
afterAll(async () => {
  await server?.close();
});

interface SearchBody {
  totalItems?: number;
  orderedItems?: Array<{ id: string }>;
  error?: string;
}

const created = async (actor: Actor, activity: Record<string, unknown>): Promise<string> => {
  const res = await outbox(api, actor, activity);
  if (res.status !== 201)
    throw new Error(`${JSON.stringify(activity)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};

async function search(path: string, who?: Actor) {
  const res = await api.get<SearchBody>(path, who ? { token: who.token } : {});
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return { total: res.body.totalItems, ids: (res.body.orderedItems ?? []).map((i) => i.id) };
}

describe('kind tables are reached by own keys only', () => {
  test('prototype names are unknown types: the same 400 as any unknown type, listing the allowed ones', async () => {
    const unknown = await api.get<SearchBody>('/search?q=harbour&type=planets');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^type: must be one of users, posts, pages, groups, bookmarks/);
    for (const type of [
      '__proto__',
      'constructor',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'isPrototypeOf',
    ]) {
      const res = await api.get<SearchBody>(`/search?q=harbour&type=${type}`);
      expect([type, res.status, res.body]).toEqual([type, 400, unknown.body]);
    }
  });

  test('prototype names in searchIn are ignored like other unknown names', async () => {
    const pub = await created(alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Quokka sighting on the island' },
    });
    for (const searchIn of ['__proto__', 'constructor,toString', 'posts,__proto__'])
      expect([searchIn, (await search(`/search?q=quokka&searchIn=${searchIn}`)).ids]).toEqual([
        searchIn,
        [pub],
      ]);
  });

  test('an admin recommendation whose ref names a prototype kind is the 400 of any other kind', async () => {
    const admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
    const section = await api.post<{ section: { id: string } }>(
      '/admin/sections',
      { name: 'Picks' },
      { token: admin },
    );
    expect(section.status).toBe(201);
    const recommend = (ref: string) =>
      api.post<SearchBody>(
        '/admin/recommendations',
        { ref, section: section.body.section.id },
        { token: admin },
      );
    const other = await recommend('planet:0123456789abcdef01234567@social.test');
    expect(other.status).toBe(400);
    for (const kind of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const res = await recommend(`${kind}:0123456789abcdef01234567@social.test`);
      expect([kind, res.status, res.body]).toEqual([kind, 400, other.body]);
    }
  });
});

describe('totalItems counts only what the viewer may open', () => {
  test('a public bookmark inside a private folder is neither listed nor counted for others', async () => {
    const folder = await created(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      to: alice.id,
      object: { type: 'Folder', title: 'Private stash' },
    });
    const inside = await created(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      to: '@public',
      object: { href: 'https://example.org/w', title: 'Wombat burrows', parentFolder: folder },
    });
    expect(await search('/search?q=wombat', alice)).toEqual({ total: 1, ids: [inside] });
    for (const who of [undefined, bob])
      expect(await search('/search?q=wombat', who)).toEqual({ total: 0, ids: [] });
  });

  test('totalItems is the number of items the pages hold, walked with limit=1', async () => {
    const friends = await created(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Friends' },
    });
    const folder = await created(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      to: alice.id,
      object: { type: 'Folder', title: 'Hidden' },
    });
    const shown = [
      await created(alice, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'Kiwi one' },
      }),
      await created(alice, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'Kiwi two' },
      }),
    ];
    await created(alice, {
      type: 'Create',
      objectType: 'Post',
      to: friends,
      object: { content: 'Kiwi three' },
    });
    await created(alice, {
      type: 'Create',
      objectType: 'Bookmark',
      to: '@public',
      object: { href: 'https://example.org/k', title: 'Kiwi four', parentFolder: folder },
    });
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++)
      seen.push(...(await search(`/search?q=kiwi&limit=1&page=${page}`, bob)).ids);
    expect(new Set(seen)).toEqual(new Set(shown));
    expect((await search('/search?q=kiwi', bob)).total).toBe(2);
    expect((await search('/search?q=kiwi&limit=1&page=1', bob)).total).toBe(2);
  });
});

describe("a deleted account's content leaves the search index", () => {
  test('neither listed nor counted, and its index entries are gone', async () => {
    const dora = await registerActor(api, 'dora');
    const pub = await created(dora, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Platypus spotted upstream' },
    });
    const bookmark = await created(dora, {
      type: 'Create',
      objectType: 'Bookmark',
      to: '@public',
      object: { href: 'https://example.org/p', title: 'Platypus facts' },
    });
    expect(new Set((await search('/search?q=platypus', bob)).ids)).toEqual(new Set([pub, bookmark]));
    expect((await outbox(api, dora, { type: 'Delete', target: dora.id })).status).toBe(201);
    for (const who of [undefined, bob])
      expect(await search('/search?q=platypus', who)).toEqual({ total: 0, ids: [] });
    const index = server.services[0]!.runtime!.repos.search;
    expect(await index.withTerm('platypus', undefined, 10)).toEqual([]);
  });
});
