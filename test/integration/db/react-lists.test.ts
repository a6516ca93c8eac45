/**
 * A target's reactions as a list (`reacts:<target>`) on the real FerretDB: GET /posts/:id/reacts'
 * page is newest first with the live total; a removed reaction leaves it, one made again comes
 * back on top; purging the target empties it.
 */
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_react_lists', 'reacts.test');

const T = 'post:target@reacts.test';
let n = 0;
const react = (who: string, target = T) => ({
  id: `react:${++n}@reacts.test`,
  actorId: `@${who}@reacts.test`,
  target,
  emoji: '👍',
});
const who = (items: Array<{ actorId: string }>) => items.map((r) => r.actorId.split('@')[1]);
const pause = () => new Promise((r) => setTimeout(r, 5));

test("a target's reactions page newest first; removed ones leave, remade ones come back on top", async () => {
  for (const name of ['ann', 'bob', 'cat']) {
    expect(await t.repos.reacts.add(react(name))).toBe(true);
    await pause();
  }
  let page = await t.repos.reacts.pageForTarget(T, { skip: 0, limit: 2 });
  expect(page.total).toBe(3);
  expect(who(page.items)).toEqual(['cat', 'bob']);
  expect(page.items[0]).not.toHaveProperty('_id');
  expect(who((await t.repos.reacts.pageForTarget(T, { skip: 2, limit: 2 })).items)).toEqual(['ann']);

  await t.repos.reacts.removeMine('@ann@reacts.test', T);
  await t.repos.reacts.removeById((await t.repos.reacts.mine('@bob@reacts.test', T))!.id);
  page = await t.repos.reacts.pageForTarget(T, { skip: 0, limit: 10 });
  expect(page.total).toBe(1);
  expect(who(page.items)).toEqual(['cat']);

  await pause();
  await t.repos.reacts.add(react('ann'));
  page = await t.repos.reacts.pageForTarget(T, { skip: 0, limit: 10 });
  expect(page.total).toBe(2);
  expect(who(page.items)).toEqual(['ann', 'cat']);

  await t.repos.reacts.purgeForTargets([T]);
  expect(await t.repos.reacts.pageForTarget(T, { skip: 0, limit: 10 })).toEqual({ total: 0, items: [] });
});
