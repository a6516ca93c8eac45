/**
 * Cached remote groups (GroupsStore.cacheRemote, CirclesStore.syncCached with `grants`) on both
 * engines: another server's group is cached on first mention, refreshed by later ones, never
 * touches a local group or one cached from another origin; its cached members circle makes the
 * members it holds members of the group in the reverse index (what audience checks read).
 */
import { CIRCLES, CirclesStore, GROUPS, GroupsStore, MEMBERSHIPS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const DOMAIN = 'here.test';
const BOB = '@bob@here.test';
let n = 0;
const hex = () => (++n).toString(16).padStart(24, '0');
const remote = (extra: Record<string, unknown> = {}) => ({
  id: `group:${hex()}@there.test`,
  name: 'Gardeners',
  actorId: '@alice@there.test',
  to: '@public',
  rsvpPolicy: 'open' as const,
  originDomain: 'there.test',
  ...extra,
});

describe.each(engineFixtures())('cached remote groups on $name', (fx) => {
  let engine: Engine;
  let groups: GroupsStore;
  let circles: CirclesStore;

  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([GROUPS, CIRCLES, MEMBERSHIPS]);
    groups = new GroupsStore(engine, DOMAIN);
    circles = new CirclesStore(engine, DOMAIN, () => Promise.resolve());
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('caches on first mention, then refreshes the description and the members circle', async () => {
    const g = remote();
    expect(await groups.cacheRemote(g)).toMatchObject({
      id: g.id,
      originDomain: 'there.test',
      name: 'Gardeners',
    });
    const members = `circle:${hex()}@there.test`;
    await groups.cacheRemote({ ...g, name: 'Green thumbs', to: g.id, membersCircle: members });
    expect(await groups.byId(g.id)).toMatchObject({
      name: 'Green thumbs',
      to: g.id,
      canReply: g.id,
      circles: { members },
      server: '@there.test',
    });
  });

  it('never touches a local group or one cached from another origin', async () => {
    const local = `group:${hex()}@here.test`;
    await groups.create({
      id: local,
      name: 'Ours',
      actorId: '@bob@here.test',
      to: '@public',
      rsvpPolicy: 'open',
    });
    expect(await groups.cacheRemote(remote({ id: local, originDomain: 'here.test' }))).toBeNull();
    expect(await groups.cacheRemote(remote({ id: local }))).toBeNull();
    expect(await groups.byId(local)).toMatchObject({ name: 'Ours', originDomain: null });
    const theirs = remote();
    await groups.cacheRemote(theirs);
    expect(
      await groups.cacheRemote({ ...theirs, originDomain: 'elsewhere.test', name: 'Stolen' }),
    ).toBeNull();
    expect(await groups.byId(theirs.id)).toMatchObject({ name: 'Gardeners', originDomain: 'there.test' });
  });

  it('a cached members circle with grants makes its members members of the group', async () => {
    const g = remote();
    const members = `circle:${hex()}@there.test`;
    const origin = { id: members, actorId: g.id, name: '', originDomain: 'there.test', grants: g.id };
    await circles.syncCached(origin, { rev: 1, present: [BOB], scope: 'all' });
    expect((await circles.membershipsOf(BOB)).groups).toContain(g.id);
    await circles.syncCached(origin, { rev: 2, present: [], scope: 'all' });
    expect((await circles.membershipsOf(BOB)).groups).not.toContain(g.id);
  });
});
