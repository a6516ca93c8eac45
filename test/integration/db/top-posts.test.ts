/**
 * An author's posts by reactions (GET /users/:id/posts?sort=top) on the real FerretDB: most
 * reactions first, then newest; only the posts the viewer's predicate keeps, counted; paging and
 * `since`; read through the author's list, every post by `_id` (no filter on `actorId`, which
 * FerretDB answers by scanning every post).
 */
import { useTestDatabase } from '../../harness/database';
import { notePost, recordCommands } from '../../harness/stored';

const D = 'top.test';
const t = useTestDatabase('it_top_posts', D, { query: 'monitorCommands=true', engine: 'mongodb' });
const sent = recordCommands(t);

const ANN = `@ann@${D}`;
const post = (n: number, actorId = ANN, to = '@public') =>
  notePost(`post:top-${actorId.split('@')[1]}-${n}@${D}`, actorId, n, to);
const num = (items: Array<{ id: string }>) => items.map((p) => Number(/-(\d+)@/.exec(p.id)![1]));

test("an author's top page: most reactions first, then newest; only what the viewer may read, by `_id`", async () => {
  const reacts: Record<number, number> = { 1: 3, 2: 0, 3: 7, 4: 3, 5: 0, 6: 9 };
  for (const n of [1, 2, 3, 4, 5, 6])
    await t.repos.posts.createLocal(post(n, ANN, n === 6 ? `@${D}` : '@public'));
  await t.repos.posts.createLocal(post(7, `@bob@${D}`)); // another author's, never on ann's page
  for (const [n, c] of Object.entries(reacts)) await t.repos.posts.set(post(Number(n)).id, { reactCount: c });

  const from = sent.length;
  const publicOnly = (p: { to?: string | null }) => p.to === '@public';
  let page = await t.repos.posts.pageTopByAuthor(ANN, publicOnly, { skip: 0, limit: 3 });
  expect(page.total).toBe(5);
  expect(num(page.items)).toEqual([3, 4, 1]); // 6 (server only) is not readable; 4 and 1 tie, 4 newer
  for (const f of sent.slice(from).filter((x) => x.name === 'find' && x.coll === 'posts'))
    expect(Object.keys(f.command.filter as object)).toEqual(['_id']);

  page = await t.repos.posts.pageTopByAuthor(ANN, publicOnly, { skip: 3, limit: 3 });
  expect(num(page.items)).toEqual([5, 2]);
  expect(num((await t.repos.posts.pageTopByAuthor(ANN, () => true, { skip: 0, limit: 2 })).items)).toEqual([
    6, 3,
  ]);

  // `since`: only posts published at or after it.
  page = await t.repos.posts.pageTopByAuthor(ANN, publicOnly, {
    skip: 0,
    limit: 10,
    since: new Date(1e12 + 4000),
  });
  expect(page.total).toBe(2);
  expect(num(page.items)).toEqual([4, 5]);
});
