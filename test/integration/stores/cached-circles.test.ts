/**
 * Cached remote circles (CirclesStore.syncCached) on both engines: another server's circle is
 * cached on first mention holding this server's members as of the origin's revision; the reverse
 * index (what audience checks read) and the listener follow every change; an older message after
 * a newer one changes nothing; racing messages end in the newest state; a circle of this server,
 * or one cached from another origin, is never touched by a message claiming its id; a deleted
 * cached circle stays deleted.
 */
import { CIRCLES, CirclesStore, MEMBERSHIPS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const DOMAIN = 'here.test';
const BOB = '@bob@here.test';
const CAROL = '@carol@here.test';
const SERVER = '@here.test';
let n = 0;
const origin = () => ({
  id: `circle:${(++n).toString(16).padStart(24, '0')}@there.test`,
  actorId: '@alice@there.test',
  name: 'Friends',
  originDomain: 'there.test',
});

describe.each(engineFixtures())('cached remote circles on $name', (fx) => {
  let engine: Engine;
  let circles: CirclesStore;
  const told: Array<[string, string[]]> = [];

  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([CIRCLES, MEMBERSHIPS]);
    circles = new CirclesStore(engine, DOMAIN, (id, members) => {
      told.push([id, members]);
      return Promise.resolve();
    });
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('caches the circle on first mention with the members named, in the reverse index', async () => {
    const c = origin();
    const synced = await circles.syncCached(c, { rev: 4, present: [BOB, SERVER], scope: 'all' });
    expect(synced).toMatchObject({ added: [BOB, SERVER], removed: [] });
    expect(await circles.findById(c.id)).toMatchObject({
      id: c.id,
      actorId: '@alice@there.test',
      originDomain: 'there.test',
      name: 'Friends',
      to: '',
      memberCount: 2,
    });
    expect((await circles.membershipsOf(BOB)).circles).toContain(c.id);
    expect((await circles.membershipsOf(SERVER)).circles).toContain(c.id);
    expect(told.at(-1)).toEqual([c.id, [BOB, SERVER]]);
    // Not a circle of this server: GET /circles never lists it.
    const listed = await circles.pageListed(
      { type: 'Circle', audiences: [''] },
      { skip: 0, limit: 100 },
      'createdAt',
    );
    expect(listed.items.map((i) => i.id)).not.toContain(c.id);
  });

  it('a newer Remove takes the member out at once; the older Add after it does not re-add', async () => {
    const c = origin();
    await circles.syncCached(c, { rev: 3, present: [BOB], scope: 'all' });
    await circles.syncCached(c, { rev: 5, present: [], scope: 'all' });
    expect((await circles.membershipsOf(BOB)).circles).not.toContain(c.id);
    expect(await circles.syncCached(c, { rev: 3, present: [BOB], scope: 'all' })).toMatchObject({
      added: [],
      removed: [],
    });
    expect((await circles.findById(c.id))?.members).toEqual([]);
    expect((await circles.membershipsOf(BOB)).circles).not.toContain(c.id);
  });

  it('racing messages of several revisions end in the newest state, once', async () => {
    const c = origin();
    const revs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // Even revisions hold bob, odd ones carol; the newest (10) holds bob only.
    await Promise.all(
      revs.map((rev) => circles.syncCached(c, { rev, present: rev % 2 ? [CAROL] : [BOB], scope: 'all' })),
    );
    const after = await circles.findById(c.id);
    expect(after?.members.map((m) => m.id)).toEqual([BOB]);
    expect(after?.memberCount).toBe(1);
    expect((await circles.membershipsOf(BOB)).circles).toContain(c.id);
    expect((await circles.membershipsOf(CAROL)).circles).not.toContain(c.id);
  });

  it("never touches this server's circles, nor another origin's cached circle, by their id", async () => {
    const own = await circles.create({ name: 'Mine', actorId: BOB });
    expect(
      await circles.syncCached({ ...origin(), id: own.id }, { rev: 9, present: [CAROL], scope: 'all' }),
    ).toBeNull();
    expect((await circles.findById(own.id))?.members).toEqual([]);

    const c = origin();
    await circles.syncCached(c, { rev: 1, present: [BOB], scope: 'all' });
    const other = { ...c, originDomain: 'elsewhere.test' };
    expect(await circles.syncCached(other, { rev: 9, present: [], scope: 'all' })).toBeNull();
    expect((await circles.findById(c.id))?.members.map((m) => m.id)).toEqual([BOB]);
  });

  it('a deleted cached circle stays deleted and adds no one', async () => {
    const c = origin();
    await circles.syncCached(c, { rev: 1, present: [BOB], scope: 'all' });
    await circles.softDeleteCircle(c.id, c.actorId);
    expect((await circles.membershipsOf(BOB)).circles).not.toContain(c.id);
    expect(await circles.syncCached(c, { rev: 2, present: [BOB, CAROL], scope: 'all' })).toBeNull();
    expect((await circles.membershipsOf(CAROL)).circles).not.toContain(c.id);
  });

  it('everOwnedBy lists deleted circles with their members (account deletion)', async () => {
    const owner = '@gone@here.test';
    const live = await circles.create({ name: 'Live', actorId: owner, members: [{ id: '@x@far.test' }] });
    const dead = await circles.create({ name: 'Dead', actorId: owner, members: [{ id: '@y@far.test' }] });
    await circles.softDeleteCircle(dead.id, owner);
    const owned = await circles.everOwnedBy(owner);
    expect(owned.map((c) => c.id).sort()).toEqual([live.id, dead.id].sort());
    expect(owned.flatMap((c) => c.members.map((m) => m.id)).sort()).toEqual(['@x@far.test', '@y@far.test']);
  });
});
