/**
 * ObjectCollection, the base of every object store over the port, on both engines: soft delete
 * tells exactly one of concurrent callers, counters never stay below zero, many ids in one read,
 * reaction deltas drop spent emoji, pages are total and the GC purges only old tombstones.
 */
import type { CollectionSpec, Engine } from '@agora/common/db/engine';
import { ObjectCollection, type ObjectRow } from '@agora/common/db';
import { engineFixtures, specFor } from '../engine/fixtures';

interface Thing extends ObjectRow {
  actorId: string;
  n?: number;
  at: Date;
  parentId?: string;
  reactCount?: number;
  reactSummary?: Record<string, number>;
  name?: string;
}

const BASE: Omit<CollectionSpec, 'name'> = {
  indexes: [
    { fields: [['actorId', 1]], serves: 'author copies' },
    { fields: [['deletedAt', 1]], serves: 'the GC' },
    {
      fields: [
        ['parentId', 1],
        ['actorId', 1],
        ['deletedAt', 1],
      ],
      serves: 'folder children',
    },
    {
      fields: [
        ['actorId', 1],
        ['at', -1],
      ],
      serves: 'an author’s things, newest first',
    },
  ],
  dates: ['at', 'deletedAt'],
};

class Things extends ObjectCollection<Thing> {
  add(t: Omit<Thing, '_id'>) {
    return this.insert(t);
  }
  byActor(actorId: string, skip: number, limit: number) {
    return this.page({ actorId }, { skip, limit }, [['at', -1]]);
  }
}

const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);

describe.each(engineFixtures())('ObjectCollection on $name', (fx) => {
  let engine: Engine;
  let things: Things;
  beforeAll(async () => {
    engine = await fx.open();
    const spec = specFor(BASE, 'things');
    await engine.ensure([spec]);
    things = new Things(engine, spec);
    for (let i = 0; i < 12; i++) await things.add({ id: `t${i}`, actorId: i < 10 ? 'a' : 'b', at: t(i % 3) });
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('reads many ids at once, live ones only', async () => {
    await things.softDelete('t11', { deletedAt: t(100) });
    const found = await things.liveByIds(['t1', 't2', 't11', 'nope', 't1']);
    expect([...found.keys()].sort()).toEqual(['t1', 't2']);
  });

  it('soft delete: exactly one of ten concurrent callers gets the object; restore brings it back', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => things.softDelete('t5', { deletedAt: t(50) })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.find(Boolean)?.deletedAt ?? null).toBeNull(); // the object as it was before
    expect(await things.liveById('t5')).toBeNull();
    expect((await things.restore('t5'))?.deletedAt).toBeNull();
    expect(await things.restore('t5')).toBeNull();
  });

  it('counters move atomically and a decrement never leaves them below zero', async () => {
    await Promise.all(Array.from({ length: 30 }, () => things.bump('t0', 'n', 1)));
    expect((await things.byId('t0'))?.n).toBe(30);
    await Promise.all(Array.from({ length: 40 }, () => things.bump('t0', 'n', -1)));
    expect((await things.byId('t0'))?.n).toBe(0);
  });

  it('reaction deltas: counts by emoji, spent ones dropped, most used first', async () => {
    await Promise.all([
      things.reactDelta('t1', { '❤️': 1 }),
      things.reactDelta('t1', { '❤️': 1 }),
      things.reactDelta('t1', { '👍': 1 }),
    ]);
    expect(await things.reactDelta('t1', {})).toEqual({ reactCount: 3, reactSummary: { '❤️': 2, '👍': 1 } });
    expect(await things.reactDelta('t1', { '👍': -1 })).toEqual({ reactCount: 2, reactSummary: { '❤️': 2 } });
    expect(await things.reactDelta('t1', { '👍': -1 })).toEqual({ reactCount: 2, reactSummary: { '❤️': 2 } });
  });

  it('pages are total: ties on the time come in id order, pages partition the list', async () => {
    const seen: string[] = [];
    for (let skip = 0; ; skip += 4) {
      const { total, items } = await things.byActor('a', skip, 4);
      expect(total).toBe(10);
      if (!items.length) break;
      seen.push(...items.map((i) => i.id));
    }
    expect(new Set(seen).size).toBe(10);
  });

  it('author copies and folder children; the GC purges only tombstones older than the cutoff', async () => {
    await things.refreshActorCopy('b', { name: 'Bea' });
    expect((await things.byId('t10'))?.name).toBe('Bea');
    expect((await things.byId('t0'))?.name).toBeUndefined();
    await things.set('t2', { parentId: 'f' });
    await things.set('t3', { parentId: 'f' });
    expect((await things.childrenIn('parentId', ['f'], 'a')).map((x) => x.id).sort()).toEqual(['t2', 't3']);
    await things.softDelete('t4', { deletedAt: t(200) });
    expect(await things.purgeDeletedBefore(t(150))).toEqual(['t11']);
    expect(await things.byId('t11')).toBeNull();
    expect(await things.byId('t4')).not.toBeNull();
  });
});
