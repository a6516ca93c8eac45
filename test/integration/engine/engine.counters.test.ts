/**
 * Counters (`updateOne`/`updateEach` of `$inc` by `_id`), on both engines: the SQLite adapter
 * moves them in place, without reading the document (engine/sqlite/increment.ts), and must give
 * exactly what the general path gives: nested fields created, neighbours kept, decimals and
 * negatives, dates untouched, a non-number refused without a change, upserts of missing ones.
 */
import type { Collection, Doc, Engine } from '@agora/common/db/engine';
import { engineFixtures, specFor } from './fixtures';

interface Counter extends Doc {
  count?: number;
  label?: string;
  at?: Date;
  tags?: Record<string, number>;
}

const COUNTERS = { indexes: [], dates: ['at'] };
const at = new Date(Date.UTC(2026, 0, 1));

describe.each(engineFixtures())('engine counters: $name', (fx) => {
  let engine: Engine;
  const fresh = async (): Promise<Collection<Counter>> => {
    const spec = specFor(COUNTERS, 'n');
    await engine.ensure([spec]);
    return engine.collection<Counter>(spec);
  };

  beforeAll(async () => {
    engine = await fx.open();
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('moves fields in place: nested ones created, neighbours and dates kept', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'a', count: 1, label: 'x', at, tags: { keep: 7 } });
    expect(
      await c.updateOne({ _id: 'a' }, { $inc: { count: 1, 'tags.new': 2, 'tags.@public': -1 } }),
    ).toEqual({
      matched: 1,
      upserted: false,
    });
    await c.updateOne({ _id: 'a' }, { $inc: { count: 0.5, 'tags.keep': -7 } });
    expect(await c.findOne({ _id: 'a' })).toEqual({
      _id: 'a',
      count: 2.5,
      label: 'x',
      at,
      tags: { keep: 0, new: 2, '@public': -1 },
    });
  });

  it('creates the object above a field when it is missing', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'b' });
    await c.updateEach([
      { filter: { _id: 'b' }, update: { $inc: { 'tags.a': 1 } } },
      { filter: { _id: 'b' }, update: { $inc: { 'tags.a': 1, 'tags.b': 3 } } },
    ]);
    expect(await c.findOne({ _id: 'b' })).toEqual({ _id: 'b', tags: { a: 2, b: 3 } });
  });

  it('refuses to move a field holding something else, and changes nothing', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'c', count: 1, label: 'text' });
    await expect(c.updateOne({ _id: 'c' }, { $inc: { label: 1, count: 1 } })).rejects.toThrow();
    expect(await c.findOne({ _id: 'c' })).toEqual({ _id: 'c', count: 1, label: 'text' });
  });

  it('upserts a missing counter, and answers matched 0 without upsert', async () => {
    const c = await fresh();
    expect(await c.updateOne({ _id: 'gone' }, { $inc: { count: 1 } })).toEqual({
      matched: 0,
      upserted: false,
    });
    expect(await c.findOne({ _id: 'gone' })).toBeNull();
    expect(await c.updateOne({ _id: 'd' }, { $inc: { count: 2, 'tags.t': 1 } }, { upsert: true })).toEqual({
      matched: 0,
      upserted: true,
    });
    expect(await c.findOne({ _id: 'd' })).toEqual({ _id: 'd', count: 2, tags: { t: 1 } });
  });

  it('moves keys holding a backslash or a quote as any other (read back as written)', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'k' });
    const keys = ['back\\slash', 'a\\u0041', 'say"hi"'];
    // One key per update: a key taking the general path must not carry the others along with it.
    for (let i = 0; i < 2; i++)
      for (const k of keys) await c.updateOne({ _id: 'k' }, { $inc: { [`tags.${k}`]: 1 } });
    expect(await c.findOne({ _id: 'k' })).toEqual({
      _id: 'k',
      tags: Object.fromEntries(keys.map((k) => [k, 2])),
    });
  });

  it('counts every one of many concurrent increments of one counter', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'e', count: 0 });
    await Promise.all(Array.from({ length: 300 }, () => c.updateOne({ _id: 'e' }, { $inc: { count: 1 } })));
    expect((await c.findOne({ _id: 'e' }))?.count).toBe(300);
  });
});
