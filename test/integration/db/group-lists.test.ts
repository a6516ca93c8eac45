/**
 * A group's posts as a list (`group:<id>`) on the real FerretDB: GET /groups/:id/posts' page is
 * the group's posts newest first with the list's total (by type too); a deleted post leaves it and
 * a restored one comes back.
 */
import { useTestDatabase } from '../../harness/database';

const DOMAIN = 'groups.test';
const t = useTestDatabase('it_group_lists', DOMAIN);

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
  for (const n of [1, 2, 3]) await t.repos.posts.createLocal(post(n, G));
  await t.repos.posts.createLocal(post(4, G, 'Article'));
  await t.repos.posts.createLocal(post(5, `group:other@${DOMAIN}`));
  await t.repos.posts.createLocal(post(6, null));

  let page = await t.repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 2 });
  expect(page.total).toBe(4);
  expect(names(page.items)).toEqual(['4', '3']);
  expect(names((await t.repos.posts.pageForGroup(G, undefined, { skip: 2, limit: 5 })).items)).toEqual([
    '2',
    '1',
  ]);
  page = await t.repos.posts.pageForGroup(G, ['Article'], { skip: 0, limit: 10 });
  expect(page.total).toBe(1);
  expect(names(page.items)).toEqual(['4']);

  await t.repos.posts.softDeletePost(post(3, G).id, `@ann@${DOMAIN}`);
  page = await t.repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 });
  expect(page.total).toBe(3);
  expect(names(page.items)).toEqual(['4', '2', '1']);
  await t.repos.posts.restorePost(post(3, G).id);
  page = await t.repos.posts.pageForGroup(G, undefined, { skip: 0, limit: 10 });
  expect(page.total).toBe(4);
  expect(names(page.items)).toEqual(['4', '3', '2', '1']);
});
