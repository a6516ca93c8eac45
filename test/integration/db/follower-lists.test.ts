/**
 * A user's remote followers as a list (`followers:<user>`) on the real FerretDB: delivery planning
 * reads that user's followers (and only theirs) by `_id`; a repeated follow updates the inbox
 * without listing the follower twice; an unfollow leaves the list; rows stored before the lists
 * get them once.
 */
import { followersList, FOLLOWER_LISTS_MIGRATION_ID, migrateFollowerLists } from '@agora/common/db';
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_follower_lists', 'followers.test');
const U = '@ann@followers.test';
const remote = (n: number) => `https://peer${n}.example/users/r${n}`;
const at = (n: number) => ({ domain: `peer${n}.example`, inbox: `https://peer${n}.example/inbox` });
const actors = (rows: Array<{ actorId: string }>) => rows.map((r) => r.actorId).sort();

test("a user's remote followers are read from their list; follow again, unfollow", async () => {
  for (const n of [1, 2, 3]) await t.repos.followers.add(U, remote(n), at(n));
  await t.repos.followers.add('@bob@followers.test', remote(4), at(4));
  let rows = await t.repos.followers.ofUser(U);
  expect(actors(rows)).toEqual([remote(1), remote(2), remote(3)]);
  expect(rows.find((r) => r.actorId === remote(2))?.inbox).toBe('https://peer2.example/inbox');

  await t.repos.followers.add(U, remote(2), {
    domain: 'peer2.example',
    inbox: 'https://peer2.example/shared',
  });
  rows = await t.repos.followers.ofUser(U);
  expect(rows).toHaveLength(3);
  expect(rows.find((r) => r.actorId === remote(2))?.inbox).toBe('https://peer2.example/shared');
  expect((await t.repos.lists.head(followersList(U))).count).toBe(3);

  await t.repos.followers.remove(U, remote(1));
  await t.repos.followers.remove(U, remote(9)); // never followed: nothing happens
  expect(actors(await t.repos.followers.ofUser(U))).toEqual([remote(2), remote(3)]);
  expect((await t.repos.lists.head(followersList(U))).count).toBe(2);
});

test('remote followers stored before the lists get them once; a second run counts nothing twice', async () => {
  const V = '@vic@followers.test';
  for (const n of [5, 6])
    await t.models.RemoteFollower.collection.insertOne({
      _id: `${V}|${remote(n)}` as never,
      userId: V,
      actorId: remote(n),
      ...at(n),
      createdAt: new Date(1e12 + n * 1000),
    });
  expect(await t.repos.followers.ofUser(V)).toEqual([]);
  for (let run = 0; run < 2; run++) {
    await t.models.Migration.deleteOne({ _id: FOLLOWER_LISTS_MIGRATION_ID });
    await migrateFollowerLists(t.models, t.repos, t.logger);
    expect(actors(await t.repos.followers.ofUser(V))).toEqual([remote(5), remote(6)]);
    expect((await t.repos.lists.head(followersList(V))).count).toBe(2);
  }
});
