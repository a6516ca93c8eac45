/**
 * A target's reactions as a list (`reacts:<target>`) on the real FerretDB: GET /posts/:id/reacts'
 * page is newest first with the live total; a removed reaction leaves it, one made again comes
 * back on top; purging the target empties it; reactions stored before the lists get them once.
 */
import {
  connectDatabase,
  createRepositories,
  migrateReactLists,
  REACT_LISTS_MIGRATION_ID,
  registerModels,
  type Database,
  type Repositories,
} from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
let db: Database;
let repos: Repositories;
let models: ReturnType<typeof registerModels>;

beforeAll(async () => {
  db = await connectDatabase({ url: mongoUrlFor(uniqueName('it_react_lists')), logger });
  repos = createRepositories(db, 'reacts.test');
  models = registerModels(db.conn);
});

afterAll(async () => {
  await db.conn.db!.dropDatabase();
  await db.close();
});

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
    expect(await repos.reacts.add(react(name))).toBe(true);
    await pause();
  }
  let page = await repos.reacts.pageForTarget(T, { skip: 0, limit: 2 });
  expect(page.total).toBe(3);
  expect(who(page.items)).toEqual(['cat', 'bob']);
  expect(page.items[0]).not.toHaveProperty('_id');
  expect(who((await repos.reacts.pageForTarget(T, { skip: 2, limit: 2 })).items)).toEqual(['ann']);

  await repos.reacts.removeMine('@ann@reacts.test', T);
  await repos.reacts.removeById((await repos.reacts.mine('@bob@reacts.test', T))!.id);
  page = await repos.reacts.pageForTarget(T, { skip: 0, limit: 10 });
  expect(page.total).toBe(1);
  expect(who(page.items)).toEqual(['cat']);

  await pause();
  await repos.reacts.add(react('ann'));
  page = await repos.reacts.pageForTarget(T, { skip: 0, limit: 10 });
  expect(page.total).toBe(2);
  expect(who(page.items)).toEqual(['ann', 'cat']);

  await repos.reacts.purgeForTargets([T]);
  expect(await repos.reacts.pageForTarget(T, { skip: 0, limit: 10 })).toEqual({ total: 0, items: [] });
});

test('reactions stored before the lists get them once; a second run counts nothing twice', async () => {
  const target = 'post:legacy@reacts.test';
  for (const [i, name] of ['dan', 'eve'].entries()) {
    const r = react(name, target);
    await models.React.collection.insertOne({
      _id: `${target}|${r.actorId}` as never,
      ...r,
      createdAt: new Date(1e12 + i * 1000),
    });
  }
  for (let run = 0; run < 2; run++) {
    await models.Migration.deleteOne({ _id: REACT_LISTS_MIGRATION_ID });
    await migrateReactLists(models, repos, logger);
    const page = await repos.reacts.pageForTarget(target, { skip: 0, limit: 10 });
    expect(page.total).toBe(2);
    expect(who(page.items)).toEqual(['eve', 'dan']);
  }
});
