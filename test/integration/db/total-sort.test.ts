/**
 * Collections paged by `page`/`limit` (spec 1.5) are read by offset, so page N and N + 1 only
 * partition a list when its sort is total: ties on the time (or order, or count) broken by the
 * id (issue 21 item 4). An engine may return tied documents in any order, and in another one for
 * the next page's query. On the real FerretDB the suite runs.
 */
import { ANONYMOUS } from '@agora/common/audience';
import { useTestDatabase } from '../../harness/database';
import { recordCommands } from '../../harness/stored';

const DOMAIN = 'sort.test';
const t = useTestDatabase('it_total_sort', DOMAIN, { query: 'monitorCommands=true', engine: 'mongodb' });
const sent = recordCommands(t);
const req = { skip: 7, limit: 7 };
const OWNER = `@olive@${DOMAIN}`;

test('every offset page a store asks the engine for is sorted down to the id', async () => {
  const calls: Array<[string, () => Promise<unknown>]> = [
    [
      'GET /circles',
      () => t.repos.circles.pageListed({ type: 'Circle', audiences: ['@public'] }, req, 'createdAt'),
    ],
    [
      'GET /circles?sort=reacts',
      () => t.repos.circles.pageListed({ type: 'Circle', audiences: ['@public'] }, req, 'reacts'),
    ],
    ['GET /users/:id/circles', () => t.repos.circles.pageCirclesOf(OWNER, 'all', req)],
    ['GET /groups', () => t.repos.groups.pageLocalVisibleTo(ANONYMOUS, req)],
    ['GET /bookmarks', () => t.repos.bookmarks.pageRootsVisibleTo(ANONYMOUS, undefined, req)],
    [
      'GET /users/:id/bookmarks',
      () => t.repos.bookmarks.pageForOwner(OWNER, null, { type: undefined, viewer: ANONYMOUS }, req),
    ],
    ['GET /pages', () => t.repos.pages.pagePublic({}, req)],
    ['GET /files', () => t.repos.files.listOwned(OWNER, req)],
    ['GET /users', () => t.repos.users.pageLocalMembers(req)],
    ['GET /users/:id/activities', () => t.repos.activities.pageForActor(OWNER, req, ['id'])],
    ['GET /admin/posts', () => t.repos.posts.pageForAdmin({ deleted: 'live', tiersOnly: false }, req)],
    ['GET /admin/sections', () => t.repos.sections.pageForAdmin('live', req)],
    // GET /search pages by offset over these candidates.
    ['GET /search', () => t.repos.search.withTerm('word', undefined, 200)],
  ];
  const partial: Array<[string, string[][]]> = [];
  for (const [name, call] of calls) {
    const from = sent.length;
    await call();
    const sorts = sent
      .slice(from)
      .filter((c) => c.name === 'find')
      .map((c) => {
        // The driver sends a sort as a Map.
        const sort = c.command.sort ?? {};
        return sort instanceof Map ? [...(sort.keys() as Iterable<string>)] : Object.keys(sort);
      });
    if (!sorts.length || sorts.some((keys) => keys[keys.length - 1] !== '_id')) partial.push([name, sorts]);
  }
  expect(partial).toEqual([]);
});

test('30 groups created in one millisecond: pages of 7 hold each once, the greater id first', async () => {
  const at = new Date('2026-03-01T12:00:00.000Z');
  const id = (i: number) => `group:${'0'.repeat(20)}${String(i).padStart(4, '0')}@${DOMAIN}`;
  for (let i = 0; i < 30; i++)
    await t.repos.groups.create({
      id: id(i),
      type: 'Group',
      name: `g${i}`,
      actorId: OWNER,
      to: '@public',
      canReply: '@public',
      canReact: '@public',
      createdAt: at,
    });
  const seen: string[] = [];
  for (let page = 0; page < 5; page++)
    seen.push(
      ...(await t.repos.groups.pageLocalVisibleTo(ANONYMOUS, { skip: page * 7, limit: 7 })).items.map(
        (g) => g.id,
      ),
    );
  expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => id(29 - i)));
});
