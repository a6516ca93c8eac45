/**
 * A group's posts as a list (`group:<id>`) on the real FerretDB: GET /groups/:id/posts' page is
 * the group's posts newest first with the list's total (by type too); a deleted post leaves it and
 * a restored one comes back; group posts stored before the lists get theirs at start, once.
 */
import {
  connectDatabase,
  createRepositories,
  GROUP_LISTS_MIGRATION_ID,
  migrateGroupLists,
  registerModels,
  type Database,
  type Repositories,
} from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';

const DOMAIN = 'groups.test';
const logger = createLogger({ level: 'silent', service: 'test' });
let db: Database;
let repos: Repositories;
let models: ReturnType<typeof registerModels>;

beforeAll(async () => {
  db = await connectDatabase({ url: mongoUrlFor(uniqueName('it_group_lists')), logger });
  repos = createRepositories(db, DOMAIN);
  models = registerModels(db.conn);
});

afterAll(async () => {
  await db.conn.db!.dropDatabase();
  await db.close();
});

const post = (n: number, group: string | null, type = 'Note') => ({
  id: `post:${group ?? 'none'}-${n}@${DOMAIN}`,
  actorId: `@ann@${DOMAIN}`,
  to: '@public',
  canReply: '@public',
  canReact: '@public',
  type,
  ...(group ? { group } : {}),
  source: { content: `post ${n}`, mediaType: 'text/markdown' },
  body: `<p>post ${n}</p>`,
  publishedAt: new Date(1e12 + n * 1000),
});
const names = (items: Array<{ id: string }>) => items.map((p) => p.id.replace(/^post:[^-]+-(\d+)@.*$/, '$1'));

test("a group's page is its posts newest first, with the list's totals; deletes and restores move it", async () => {
  const G = `group:g1@${DOMAIN}`;
  for (const n of [1, 2, 3]) await repos.posts.createLocal(post(n, G));
  await repos.posts.createLocal(post(4, G, 'Article'));
  await repos.posts.createLocal(post(5, `group:other@${DOMAIN}`));
  await repos.posts.createLocal(post(6, null));

  let page = await repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 2 });
  expect(page.total).toBe(4);
  expect(names(page.items)).toEqual(['4', '3']);
  expect(names((await repos.posts.pageForGroup(G, undefined, { skip: 2, limit: 5 })).items)).toEqual([
    '2',
    '1',
  ]);
  page = await repos.posts.pageForGroup(G, ['Article'], { skip: 0, limit: 10 });
  expect(page.total).toBe(1);
  expect(names(page.items)).toEqual(['4']);

  await repos.posts.softDeletePost(post(3, G).id, `@ann@${DOMAIN}`);
  page = await repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 });
  expect(page.total).toBe(3);
  expect(names(page.items)).toEqual(['4', '2', '1']);
  await repos.posts.restorePost(post(3, G).id);
  page = await repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 });
  expect(page.total).toBe(4);
  expect(names(page.items)).toEqual(['4', '3', '2', '1']);
});

test('group posts stored before group lists get them once; a second run counts nothing twice', async () => {
  const G = `group:legacy@${DOMAIN}`;
  for (const n of [1, 2, 3]) {
    const p = post(n, G);
    await models.Post.collection.insertOne({ _id: p.id as never, ...p, deletedAt: null });
  }
  expect((await repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 })).total).toBe(0);
  for (let run = 0; run < 2; run++) {
    await models.Migration.deleteOne({ _id: GROUP_LISTS_MIGRATION_ID });
    await migrateGroupLists(models, repos, DOMAIN, logger);
    const page = await repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 });
    expect(page.total).toBe(3);
    expect(names(page.items)).toEqual(['3', '2', '1']);
  }
  expect(await models.Migration.exists({ _id: GROUP_LISTS_MIGRATION_ID })).toBeTruthy();
});
