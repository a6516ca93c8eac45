/**
 * CirclesStore on both engines (issue 22): membership stays exactly-once under concurrency
 * (N adds of one member: one add, memberCount +1; N removes: one), concurrent adds of different
 * members all land, the reverse index (`membershipsOf`) agrees with the circles through soft
 * delete, restore and removal, and a crash between the circle's write and the reverse index's is
 * repaired by the next add or remove of that member. Member copies, lists and the seen mark too.
 */
import { CIRCLES, CirclesStore, MEMBERSHIPS, type MembershipRow } from '@agora/common/db';
import type { Collection, Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const DOMAIN = 'circles.test';
const page = { skip: 0, limit: 100 };
const owner = '@owner@circles.test';

describe.each(engineFixtures())('CirclesStore on $name', (fx) => {
  let engine: Engine;
  let circles: CirclesStore;
  let rows: Collection<MembershipRow>;
  const told: Array<[string, string[]]> = [];

  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([CIRCLES, MEMBERSHIPS]);
    rows = engine.collection<MembershipRow>(MEMBERSHIPS);
    circles = new CirclesStore(engine, DOMAIN, (id, members) => {
      told.push([id, members]);
      return Promise.resolve();
    });
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('creates a circle with its members in the reverse index, and tells the listener', async () => {
    const c = await circles.create({
      name: 'Friends',
      actorId: owner,
      to: '@public',
      members: [{ id: '@a@x.test' }, { id: '@b@x.test' }],
      grants: 'group:g1@circles.test',
    });
    expect(c).toMatchObject({ memberCount: 2, type: 'Circle', originDomain: null, deletedAt: null });
    expect(await circles.membershipsOf('@a@x.test')).toEqual({
      circles: [c.id],
      groups: ['group:g1@circles.test'],
    });
    expect(told.at(-1)).toEqual([c.id, ['@a@x.test', '@b@x.test']]);
  });

  it('twenty concurrent adds of one member: one adds, the count moves once, one membership row', async () => {
    const c = await circles.create({ name: 'Race', actorId: owner });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => circles.addMember(c.id, { id: '@m@x.test' })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const after = await circles.findById(c.id);
    expect(after?.memberCount).toBe(1);
    expect(after?.members.map((m) => m.id)).toEqual(['@m@x.test']);
    expect((await circles.membershipsOf('@m@x.test')).circles).toEqual([c.id]);

    const removes = await Promise.all(
      Array.from({ length: 20 }, () => circles.removeMember(c.id, '@m@x.test')),
    );
    expect(removes.filter(Boolean)).toHaveLength(1);
    expect(await circles.findById(c.id)).toMatchObject({ memberCount: 0, members: [] });
    expect((await circles.membershipsOf('@m@x.test')).circles).toEqual([]);
  });

  it('twenty concurrent adds of different members all land, with their copies refreshed in place', async () => {
    const c = await circles.create({ name: 'Crowd', actorId: owner });
    const ids = Array.from({ length: 20 }, (_, i) => `@p${i}@x.test`);
    await Promise.all([
      ...ids.map((id) => circles.addMember(c.id, { id, name: 'old' })),
      circles.refreshMemberCopies('@p0@x.test', { name: 'new' }),
    ]);
    await circles.refreshMemberCopies('@p1@x.test', { name: 'P1', icon: 'i' });
    const after = (await circles.findById(c.id))!;
    expect(after.memberCount).toBe(20);
    expect(after.members.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(after.members.find((m) => m.id === '@p1@x.test')).toMatchObject({ name: 'P1', icon: 'i' });
    expect(after.members.every((m) => m.addedAt instanceof Date)).toBe(true);
    for (const id of ids) expect(await circles.isMember(c.id, id)).toBe(true);
  });

  it('a crash between the circle and the reverse index is repaired by the next add or remove', async () => {
    const c = await circles.create({ name: 'Crash', actorId: owner, members: [{ id: '@k@x.test' }] });
    // The add wrote the circle, then the process died before the row: the row is missing.
    await rows.deleteOne({ _id: `${c.id}|@k@x.test` });
    expect((await circles.membershipsOf('@k@x.test')).circles).toEqual([]);
    expect(await circles.addMember(c.id, { id: '@k@x.test' })).toBe(false);
    expect((await circles.membershipsOf('@k@x.test')).circles).toEqual([c.id]);
    expect((await circles.findById(c.id))?.memberCount).toBe(1);
    // The remove wrote the circle, then died before deleting the row: the row is left over.
    expect(await circles.removeMember(c.id, '@k@x.test')).toBe(true);
    await rows.insertOne({ _id: `${c.id}|@k@x.test`, memberId: '@k@x.test', circleId: c.id, group: null });
    expect(await circles.removeMember(c.id, '@k@x.test')).toBe(false);
    expect((await circles.membershipsOf('@k@x.test')).circles).toEqual([]);
  });

  it('soft delete (one of concurrent callers), restore and removal keep the reverse index right', async () => {
    const c = await circles.create({ name: 'Gone', actorId: owner, members: [{ id: '@d@x.test' }] });
    const deletes = await Promise.all(Array.from({ length: 5 }, () => circles.softDeleteCircle(c.id, owner)));
    expect(deletes.filter(Boolean)).toHaveLength(1);
    expect((await circles.membershipsOf('@d@x.test')).circles).toEqual([]);
    expect(await circles.addMember(c.id, { id: '@e@x.test' })).toBe(false);
    // A delete cut short left the row: deleting again finishes it.
    await rows.insertOne({ _id: `${c.id}|@d@x.test`, memberId: '@d@x.test', circleId: c.id, group: null });
    expect(await circles.softDeleteCircle(c.id, owner)).toBeNull();
    expect((await circles.membershipsOf('@d@x.test')).circles).toEqual([]);

    expect(await circles.restoreCircle(c.id)).toMatchObject({ deletedAt: null });
    expect(await circles.restoreCircle(c.id)).toBeNull();
    expect((await circles.membershipsOf('@d@x.test')).circles).toEqual([c.id]);
    await circles.removeCircles([c.id]);
    expect(await circles.byId(c.id)).toBeNull();
    expect((await circles.membershipsOf('@d@x.test')).circles).toEqual([]);
  });

  it('lists: an owner’s circles by audience, the listed ones by reacts, admin filters, live ones', async () => {
    const mine = await circles.create({ name: 'L1', actorId: '@lister@circles.test', to: '@public' });
    const server = await circles.create({ name: 'L2', actorId: '@lister@circles.test', to: `@${DOMAIN}` });
    await circles.create({ name: 'L3', actorId: '@lister@circles.test', type: 'System' });
    await circles.reactDelta(server.id, { '👍': 2 });
    const fields = ['id', 'name', 'memberCount'] as const;
    const all = await circles.pageCirclesOf('@lister@circles.test', 'all', page, fields);
    // Newest first; two circles made in one millisecond tie on the time and come in id order.
    const newestFirst = [mine, server]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((c) => c.id);
    expect(all.items.map((c) => c.id)).toEqual(newestFirst);
    expect(all.items[0]).not.toHaveProperty('_id');
    expect(all.items[0]).not.toHaveProperty('members');
    const pub = await circles.pageCirclesOf('@lister@circles.test', ['@public'], page);
    expect(pub.items.map((c) => c.id)).toEqual([mine.id]);
    const listed = await circles.pageListed(
      { type: 'Circle', audiences: ['@public', `@${DOMAIN}`] },
      page,
      'reacts',
    );
    expect(listed.items[0]?.id).toBe(server.id);
    expect(listed.total).toBeGreaterThanOrEqual(2);

    const admin = (q: Partial<Parameters<CirclesStore['pageForAdmin']>[0]>) =>
      circles.pageForAdmin({ deleted: 'live', type: 'Circle', serverOnly: false, ...q }, page);
    expect((await admin({ actorId: '@lister@circles.test' })).total).toBe(2);
    expect((await admin({ actorId: '@lister@circles.test', to: '@public' })).items.map((c) => c.id)).toEqual([
      mine.id,
    ]);
    expect((await admin({ type: 'System' })).total).toBe(1);
    expect((await admin({ deleted: 'deleted' })).items.map((c) => c.name)).toEqual([]);
    expect((await admin({ deleted: 'include', to: `@${DOMAIN}` })).items.map((c) => c.id)).toEqual([
      server.id,
    ]);
    expect((await admin({ serverOnly: true })).total).toBe(0);
    await circles.softDeleteCircle(mine.id, owner);
    expect(
      (await admin({ deleted: 'deleted', actorId: '@lister@circles.test' })).items.map((c) => c.id),
    ).toEqual([mine.id]);
    expect(await circles.liveIdsOwnedBy('@lister@circles.test')).toHaveLength(2);
    expect(await circles.countLive()).toBe((await circles.allWithMembers()).length);
  });

  it('the seen mark only moves forward, whatever the order of concurrent calls', async () => {
    const c = await circles.create({ name: 'Seen', actorId: owner });
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
    await Promise.all([5, 1, 9, 3].map((s) => circles.setLastSeen(c.id, t(s))));
    expect(await circles.setLastSeen(c.id, t(2))).toEqual(t(9));
  });
});
