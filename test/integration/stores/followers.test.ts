/**
 * FollowersStore on both engines (issue 22), index coverage checked: a user's remote followers
 * (delivery planning) are theirs only; a repeated follow updates the inbox and lists the follower
 * once, even when the follows race; "is X a follower of Y"; an unfollow; a gone account's follows.
 */
import { FollowersStore, REMOTE_FOLLOWERS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('FollowersStore on $name', (fx) => {
  let engine: Engine;
  let store: FollowersStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([REMOTE_FOLLOWERS]);
    store = new FollowersStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const U = '@ann@followers.test';
  const remote = (n: number) => `https://peer${n}.example/users/r${n}`;
  const at = (n: number, inbox = 'inbox') => ({
    domain: `peer${n}.example`,
    inbox: `https://peer${n}.example/${inbox}`,
  });
  const actors = (rows: Array<{ actorId: string }>) => rows.map((r) => r.actorId);

  it("reads a user's followers, and only theirs; follow again updates the inbox; unfollow", async () => {
    for (const n of [3, 1, 2]) await store.add(U, remote(n), at(n));
    await store.add('@bob@followers.test', remote(4), at(4));
    let rows = await store.ofUser(U);
    expect(actors(rows)).toEqual([remote(1), remote(2), remote(3)]);
    expect(rows[1]).toMatchObject({
      userId: U,
      domain: 'peer2.example',
      inbox: 'https://peer2.example/inbox',
    });
    expect(rows[1]!.createdAt).toBeInstanceOf(Date);
    const created = rows[1]!.createdAt;

    await store.add(U, remote(2), at(2, 'shared'));
    rows = await store.ofUser(U);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatchObject({ inbox: 'https://peer2.example/shared', createdAt: created });

    expect(await store.isFollower(U, remote(1))).toBe(true);
    expect(await store.isFollower(U, remote(4))).toBe(false);
    await store.remove(U, remote(1));
    await store.remove(U, remote(9)); // never followed: nothing happens
    expect(actors(await store.ofUser(U))).toEqual([remote(2), remote(3)]);
    expect(await store.isFollower(U, remote(1))).toBe(false);
    expect(actors(await store.ofUser('@bob@followers.test'))).toEqual([remote(4)]);
    expect(await store.ofUser('@nobody@followers.test')).toEqual([]);
  });

  it("a remote account gone: none of its follows stays, others' do", async () => {
    const gone = remote(7);
    await store.add('@kim@followers.test', gone, at(7));
    await store.add('@lee@followers.test', gone, at(7));
    await store.add('@lee@followers.test', remote(8), at(8));
    await store.removeActor(gone);
    expect(await store.ofUser('@kim@followers.test')).toEqual([]);
    expect(actors(await store.ofUser('@lee@followers.test'))).toEqual([remote(8)]);
  });

  it('twenty racing follows of one pair make one follower; racing follows of many pairs lose none', async () => {
    const V = '@vic@followers.test';
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.add(V, remote(7), at(7, `inbox${i}`))));
    const rows = await store.ofUser(V);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.inbox).toMatch(/^https:\/\/peer7\.example\/inbox\d+$/);
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.add(V, remote(100 + i), at(100 + i))));
    expect(await store.ofUser(V)).toHaveLength(31);
  });
});
