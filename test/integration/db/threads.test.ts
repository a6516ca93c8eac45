/**
 * Threads as lists (ADR 0005, `thread:<root>`) on the real FerretDB: a thread page is the thread's
 * replies oldest first with the live total; a deleted reply leaves the page and the total, a
 * restored one comes back in its place; the double-submit guard finds the actor's same reply in
 * the thread's newest entries.
 */
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_threads', 'threads.test');

const ROOT = 'post:root1@threads.test';
const reply = (n: number, root = ROOT, actorId = '@ann@threads.test') => ({
  id: `reply:${root}:${n}@threads.test`,
  actorId,
  target: root,
  parent: root,
  source: { content: `reply ${n}`, mediaType: 'text/markdown' },
  body: `<p>reply ${n}</p>`,
});
const ids = (items: Array<{ id: string }>) => items.map((r) => r.id.replace(/^reply:.*:(\d+)@.*$/, '$1'));

test('a thread page is its replies oldest first; deletes and restores move the page and the total', async () => {
  for (let n = 1; n <= 5; n++) await t.repos.replies.create(reply(n));
  await t.repos.replies.create(reply(1, 'post:other@threads.test'));
  let page = await t.repos.replies.pageForThread(ROOT, { skip: 0, limit: 3 });
  expect(page.total).toBe(5);
  expect(ids(page.items)).toEqual(['1', '2', '3']);
  expect(page.items[0]).not.toHaveProperty('_id');
  expect(ids((await t.repos.replies.pageForThread(ROOT, { skip: 3, limit: 3 })).items)).toEqual(['4', '5']);

  await t.repos.replies.softDelete(reply(2).id, { deletedAt: new Date() });
  page = await t.repos.replies.pageForThread(ROOT, { skip: 0, limit: 10 });
  expect(page.total).toBe(4);
  expect(ids(page.items)).toEqual(['1', '3', '4', '5']);

  await t.repos.replies.restore(reply(2).id);
  page = await t.repos.replies.pageForThread(ROOT, { skip: 0, limit: 10 });
  expect(page.total).toBe(5);
  expect(ids(page.items)).toEqual(['1', '2', '3', '4', '5']);
});

test("the double-submit guard finds the actor's same reply to the same parent, and nothing else", async () => {
  const root = 'post:twins@threads.test';
  const first = await t.repos.replies.create(reply(1, root));
  await t.repos.replies.create(reply(2, root, '@bob@threads.test'));
  const since = new Date(Date.now() - 60_000);
  const twin = await t.repos.replies.recentTwin('@ann@threads.test', root, root, 'reply 1', since);
  expect(twin?.id).toBe(first.id);
  expect(await t.repos.replies.recentTwin('@ann@threads.test', root, root, 'reply 2', since)).toBeNull();
  expect(await t.repos.replies.recentTwin('@bob@threads.test', root, root, 'reply 1', since)).toBeNull();
  expect(
    await t.repos.replies.recentTwin('@ann@threads.test', root, root, 'reply 1', new Date(Date.now() + 1000)),
  ).toBeNull();
  await t.repos.replies.softDelete(first.id, { deletedAt: new Date() });
  expect(await t.repos.replies.recentTwin('@ann@threads.test', root, root, 'reply 1', since)).toBeNull();
});
