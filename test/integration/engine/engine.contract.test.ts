/**
 * One contract for both engine adapters (issue 22, ADR 0013): every case runs on SQLite
 * (node:sqlite) and on the MongoDB adapter (over FerretDB here), and must give the same answer.
 */
import {
  DuplicateKeyError,
  PortUsageError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Engine,
} from '@agora/common/db/engine';
import { engineFixtures, specFor } from './fixtures';

interface Item extends Doc {
  owner?: string | null;
  n?: number;
  at?: Date;
  tags?: string[];
  meta?: { kind?: string; seen?: Date };
  slug?: string;
  flag?: boolean;
}

const ITEMS: Omit<CollectionSpec, 'name'> = {
  indexes: [
    {
      fields: [
        ['owner', 1],
        ['at', -1],
      ],
      serves: 'an owner’s items, newest first',
    },
    {
      fields: [
        ['owner', 1],
        ['n', 1],
      ],
      serves: 'an owner’s items by number',
    },
    { fields: [['meta.kind', 1]], serves: 'items by kind' },
    { fields: [['n', 1]], serves: 'items by number' },
    { fields: [['at', 1]], serves: 'items by time' },
    { fields: [['flag', 1]], serves: 'flagged items' },
  ],
  dates: ['at', 'meta.seen'],
};

/** Every item has a slug here: a unique index holds every document of its collection. */
const SLUGGED: Omit<CollectionSpec, 'name'> = {
  indexes: [{ fields: [['slug', 1]], unique: true, serves: 'an item by slug' }],
};

/** Most items have no slug here: a sparse unique index leaves them out. */
const SPARSE_SLUGS: Omit<CollectionSpec, 'name'> = {
  indexes: [
    { fields: [['slug', 1]], unique: true, sparse: true, serves: 'an item by slug, when it has one' },
  ],
};

const t0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(t0 + s * 1000);
const ids = (docs: Doc[]) => docs.map((d) => d._id);

describe.each(engineFixtures())('engine contract: $name', (fx) => {
  let engine: Engine;
  const fresh = async (base = ITEMS): Promise<Collection<Item>> => {
    const spec = specFor(base);
    await engine.ensure([spec]);
    return engine.collection<Item>(spec);
  };

  beforeAll(async () => {
    engine = await fx.open();
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('inserts and reads documents back as written, dates as Dates', async () => {
    const c = await fresh();
    const doc: Item = {
      _id: 'a',
      owner: 'x',
      n: 1,
      at: at(1),
      meta: { kind: 'k', seen: at(2) },
      tags: ['p', 'q'],
    };
    await c.insertOne(doc);
    expect(await c.findOne({ _id: 'a' })).toEqual(doc);
    const back = await c.findOne({ _id: 'a' });
    expect(back?.at).toBeInstanceOf(Date);
    expect(back?.meta?.seen).toBeInstanceOf(Date);
    expect(await c.findOne({ _id: 'missing' })).toBeNull();
    expect(await c.findOne({ _id: 'a' }, { fields: ['n', 'meta.kind'] })).toEqual({
      _id: 'a',
      n: 1,
      meta: { kind: 'k' },
    });
  });

  it('refuses a second _id or a second value of a unique index with DuplicateKeyError', async () => {
    const c = await fresh(SLUGGED);
    await c.insertOne({ _id: 'a', slug: 's' });
    await expect(c.insertOne({ _id: 'a', slug: 't' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(c.insertOne({ _id: 'b', slug: 's' })).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await c.count({})).toBe(1);
    // Ordered: what comes before the duplicate stays; the error names its position.
    const err = await c
      .insertMany([
        { _id: 'c', slug: 'c' },
        { _id: 'd', slug: 's' },
        { _id: 'e', slug: 'e' },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuplicateKeyError);
    expect((err as DuplicateKeyError).index).toBe(1);
    expect(ids(await c.find({}, { sort: [['_id', 1]] }))).toEqual(['a', 'c']);
  });

  it('insertEach stores each document but those whose _id or unique value is held, and says which', async () => {
    const c = await fresh(SLUGGED);
    await c.insertOne({ _id: 'a', slug: 's' });
    expect(
      await c.insertEach([
        { _id: 'b', slug: 'b' },
        { _id: 'a', slug: 'x' },
        { _id: 'c', slug: 's' },
        { _id: 'd', slug: 'd' },
        { _id: 'b', slug: 'y' },
      ]),
    ).toEqual([true, false, false, true, false]);
    expect(await c.find({}, { sort: [['_id', 1]] })).toEqual([
      { _id: 'a', slug: 's' },
      { _id: 'b', slug: 'b' },
      { _id: 'd', slug: 'd' },
    ]);
    expect(await c.insertEach([])).toEqual([]);
    // Checked before anything is written: a document the port refuses stores none of them.
    await expect(c.insertEach([{ _id: 'e', slug: 'e' }, { _id: 'f' }])).rejects.toBeInstanceOf(
      PortUsageError,
    );
    expect(await c.count({})).toBe(3);
  });

  it('updateEach makes each change in order, upserts included, and answers as updateOne', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'a', owner: 'o', n: 1 });
    expect(
      await c.updateEach([
        { filter: { _id: 'a' }, update: { $inc: { n: 1 } } },
        { filter: { _id: 'b' }, update: { $inc: { n: 5 } }, upsert: true },
        { filter: { _id: 'a' }, update: { $set: { flag: true } } },
        { filter: { _id: 'missing' }, update: { $set: { flag: true } } },
        { filter: { _id: 'b' }, update: { $inc: { n: 1 } }, upsert: true },
      ]),
    ).toEqual([
      { matched: 1, upserted: false },
      { matched: 0, upserted: true },
      { matched: 1, upserted: false },
      { matched: 0, upserted: false },
      { matched: 1, upserted: false },
    ]);
    expect(await c.find({}, { sort: [['_id', 1]] })).toEqual([
      { _id: 'a', owner: 'o', n: 2, flag: true },
      { _id: 'b', n: 6 },
    ]);
    expect(await c.updateEach([])).toEqual([]);
    await expect(
      c.updateEach([
        { filter: { _id: 'a' }, update: { $inc: { n: 1 } } },
        { filter: { _id: 'a' }, update: { $rename: { n: 'm' } } as never },
      ]),
    ).rejects.toBeInstanceOf(PortUsageError);
    expect((await c.findOne({ _id: 'a' }))?.n).toBe(2);
  });

  it('a unique index needs its fields on every document; a limit of 0 reads nothing', async () => {
    const c = await fresh(SLUGGED);
    await expect(c.insertOne({ _id: 'a' })).rejects.toBeInstanceOf(PortUsageError);
    await expect(c.insertOne({ _id: 'a', slug: null } as never)).rejects.toBeInstanceOf(PortUsageError);
    await c.insertOne({ _id: 'a', slug: 's' });
    await expect(c.updateOne({ _id: 'a' }, { $unset: { slug: true } })).rejects.toBeInstanceOf(
      PortUsageError,
    );
    await expect(c.updateOne({ _id: 'a' }, { $set: { slug: null } })).rejects.toBeInstanceOf(PortUsageError);
    expect(await c.find({}, { limit: 0 })).toEqual([]);
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', slug: 's' });
  });

  it('a sparse unique index: any number of documents without the field, one per value', async () => {
    const c = await fresh(SPARSE_SLUGS);
    await c.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c', slug: 's' }]);
    await c.insertOne({ _id: 'd', n: 1 });
    await expect(c.insertOne({ _id: 'e', slug: 's' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(c.insertOne({ _id: 'f', slug: null } as never)).rejects.toBeInstanceOf(PortUsageError);
    expect(ids(await c.find({ slug: 's' }))).toEqual(['c']);
    expect(await c.count({})).toBe(4);
  });

  it('filters: equality, null matches missing, $in, $ne, $exists, ranges, nested paths', async () => {
    const c = await fresh();
    await c.insertMany([
      { _id: '1', owner: 'x', n: 1, at: at(1), meta: { kind: 'a' }, flag: true },
      { _id: '2', owner: 'y', n: 2, at: at(2), meta: { kind: 'b' }, flag: false },
      { _id: '3', owner: null, n: 3, at: at(3) },
      { _id: '4', n: 4, at: at(4) },
    ]);
    // Unsorted (a sort by _id after these filters would need an index of its own): compared as sets.
    const q = async (f: Parameters<typeof c.find>[0]) =>
      ids(await c.find(f))
        .sort()
        .join('');
    expect(await q({ owner: 'x' })).toBe('1');
    expect(await q({ owner: null })).toBe('34');
    expect(await q({ owner: { $in: ['y', null] } })).toBe('234');
    expect(await q({ owner: { $in: [] } })).toBe('');
    expect(await q({ owner: { $ne: 'x' } })).toBe('234');
    expect(await q({ owner: { $exists: true } })).toBe('123');
    expect(await q({ owner: { $exists: false } })).toBe('4');
    expect(await q({ n: { $gt: 1, $lte: 3 } })).toBe('23');
    expect(await q({ at: { $gte: at(2), $lt: at(4) } })).toBe('23');
    expect(await q({ 'meta.kind': 'b' })).toBe('2');
    expect(await q({ flag: true })).toBe('1');
    expect(await q({ flag: false })).toBe('2');
    expect(await c.count({ owner: { $in: ['x', 'y'] } })).toBe(2);
  });

  it('sorts, limits and skips, every order total by _id', async () => {
    const c = await fresh();
    await c.insertMany(['e', 'b', 'd', 'a', 'c'].map((id, i) => ({ _id: id, owner: 'o', n: i % 2 })));
    expect(ids(await c.find({ owner: 'o' }, { sort: [['n', 1]] }))).toEqual(['c', 'd', 'e', 'a', 'b']);
    expect(ids(await c.find({ owner: 'o' }, { sort: [['n', 1]], skip: 1, limit: 2 }))).toEqual(['d', 'e']);
  });

  it('pages by keyset through items that share their time, none skipped, none twice', async () => {
    const c = await fresh();
    // 60 items in one second, 15 more at other times: the shape of the cursor defect of issue 21.
    const docs: Item[] = [];
    for (let i = 0; i < 75; i++)
      docs.push({ _id: `i${String(i).padStart(3, '0')}`, owner: 'o', at: at(i < 60 ? 100 : i) });
    await c.insertMany([...docs].reverse());
    for (const dir of [1, -1] as const) {
      const sort = [
        ['at', dir],
        ['_id', dir],
      ] as const;
      const seen: string[] = [];
      let after: [Date, string] | undefined;
      for (;;) {
        const page = await c.find({ owner: 'o' }, { sort, limit: 7, ...(after ? { after } : {}) });
        if (!page.length) break;
        seen.push(...ids(page));
        const last = page[page.length - 1]!;
        after = [last.at!, last._id];
      }
      const expected = [...docs]
        .sort((a, b) => a.at!.getTime() - b.at!.getTime() || (a._id < b._id ? -1 : 1))
        .map((d) => d._id);
      expect(seen).toEqual(dir === 1 ? expected : expected.reverse());
    }
  });

  it('updates one document atomically: $set, $unset, $inc, $max, $min, $push, $pull, $addToSet', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'a', n: 1, at: at(10), tags: ['x'], meta: { kind: 'k' } });
    const after = await c.findOneAndUpdate(
      { _id: 'a' },
      {
        $set: { 'meta.seen': at(5), owner: 'o' },
        $unset: { 'meta.kind': true },
        $inc: { n: 2, missing: 3 },
        $max: { at: at(5) },
        $push: { tags: 'y' },
      },
    );
    expect(after).toEqual({
      _id: 'a',
      n: 3,
      missing: 3,
      at: at(10),
      owner: 'o',
      tags: ['x', 'y'],
      meta: { seen: at(5) },
    });
    await c.updateOne({ _id: 'a' }, { $max: { at: at(20) }, $min: { n: 0 }, $addToSet: { tags: 'x' } });
    await c.updateOne({ _id: 'a' }, { $pull: { tags: 'y' } });
    expect(await c.findOne({ _id: 'a' })).toMatchObject({ at: at(20), n: 0, tags: ['x'] });
    expect(await c.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { returning: 'before' })).toMatchObject(
      {
        n: 0,
      },
    );
    expect(await c.updateOne({ _id: 'nope' }, { $inc: { n: 1 } })).toEqual({ matched: 0, upserted: false });
  });

  it('updates keys that are data (an emoji in a summary), never a key with a dot or a $', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'r' });
    await c.updateOne({ _id: 'r' }, { $inc: { 'meta.❤️': 2, 'meta.:+1:': 1 } });
    await c.updateOne({ _id: 'r' }, { $inc: { 'meta.❤️': -1 }, $unset: { 'meta.:+1:': true } });
    expect(await c.findOne({ _id: 'r' })).toEqual({ _id: 'r', meta: { '❤️': 1 } });
    await expect(c.updateOne({ _id: 'r' }, { $inc: { 'meta.$x': 1 } })).rejects.toBeInstanceOf(
      PortUsageError,
    );
    await expect(c.updateOne({ _id: 'r' }, { $inc: { 'meta..x': 1 } })).rejects.toBeInstanceOf(
      PortUsageError,
    );
  });

  it('pulls array elements by a match on their fields', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'p', meta: { kind: 'k' } });
    await c.updateOne({ _id: 'p' }, { $push: { 'meta.members': { id: 'a', name: 'A' } } });
    await c.updateOne({ _id: 'p' }, { $push: { 'meta.members': { id: 'b', name: 'B' } } });
    await c.updateOne({ _id: 'p' }, { $pull: { 'meta.members': { id: 'a' } } });
    expect(await c.findOne({ _id: 'p' })).toEqual({
      _id: 'p',
      meta: { kind: 'k', members: [{ id: 'b', name: 'B' }] },
    });
  });

  it('upserts by _id: inserts once with $setOnInsert, then updates', async () => {
    const c = await fresh();
    const up = () =>
      c.updateOne(
        { _id: 'u', owner: 'o' },
        { $inc: { n: 1 }, $setOnInsert: { at: at(1) } },
        { upsert: true },
      );
    expect(await up()).toEqual({ matched: 0, upserted: true });
    expect(await up()).toEqual({ matched: 1, upserted: false });
    expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', owner: 'o', n: 2, at: at(1) });
    await expect(c.updateOne({ owner: 'z' }, { $inc: { n: 1 } }, { upsert: true })).rejects.toBeInstanceOf(
      PortUsageError,
    );
  });

  it('writes no field for an undefined value: in a document, $set and $setOnInsert alike', async () => {
    const c = await fresh();
    await c.insertOne({ _id: 'u', owner: 'o', n: undefined });
    await c.updateOne({ _id: 'u' }, { $set: { slug: undefined, flag: true } });
    await c.updateOne({ _id: 'v' }, { $set: { n: 1 }, $setOnInsert: { owner: undefined } }, { upsert: true });
    expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', owner: 'o', flag: true });
    expect(await c.findOne({ _id: 'v' })).toEqual({ _id: 'v', n: 1 });
    // Absent, not null: `$exists` tells them apart.
    expect(await c.count({ n: { $exists: true } })).toBe(1);
    expect(await c.count({ owner: { $exists: false } })).toBe(1);
  });

  it('updateMany changes each match; the first match by sort is the one updateOne changes', async () => {
    const c = await fresh();
    await c.insertMany([1, 2, 3].map((i) => ({ _id: `m${i}`, owner: 'o', n: i })));
    await c.updateOne({ owner: 'o' }, { $set: { flag: true } }, { sort: [['n', -1]] });
    expect((await c.findOne({ flag: true }))?._id).toBe('m3');
    expect(await c.updateMany({ owner: 'o' }, { $inc: { n: 10 } })).toBe(3);
    expect((await c.find({ owner: 'o' }, { sort: [['n', 1]] })).map((d) => d.n)).toEqual([11, 12, 13]);
  });

  it('deletes one, many, or one by sort and returns it', async () => {
    const c = await fresh();
    await c.insertMany([1, 2, 3, 4].map((i) => ({ _id: `d${i}`, owner: i < 4 ? 'o' : 'p', n: i })));
    expect(await c.findOneAndDelete({ owner: 'o' }, { sort: [['n', -1]] })).toMatchObject({ _id: 'd3' });
    expect(await c.deleteOne({ _id: 'd1' })).toBe(1);
    expect(await c.deleteOne({ _id: 'd1' })).toBe(0);
    expect(await c.deleteMany({ owner: { $in: ['o', 'p'] } })).toBe(2);
    expect(await c.count({})).toBe(0);
  });

  it('scans every document in _id order, in batches; clear empties the collection', async () => {
    const c = await fresh();
    await c.insertMany(Array.from({ length: 23 }, (_, i) => ({ _id: `s${String(i).padStart(2, '0')}` })));
    const batches: string[][] = [];
    for await (const b of c.scan(10)) batches.push(ids(b));
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
    expect(batches.flat()).toEqual([...batches.flat()].sort());
    await c.clear();
    expect(await c.count({})).toBe(0);
  });

  it('refuses queries no declared index serves, and what the port does not define', async () => {
    const c = await fresh();
    await expect(c.find({ tags: 'x' })).rejects.toBeInstanceOf(PortUsageError);
    await expect(c.find({ owner: 'o' }, { sort: [['slug', 1]] })).rejects.toBeInstanceOf(PortUsageError);
    await expect(c.find({ n: { $where: 'x' } as never })).rejects.toBeInstanceOf(PortUsageError);
    await expect(c.find({ owner: { nested: 1 } as never })).rejects.toBeInstanceOf(PortUsageError);
    await expect(c.updateOne({ _id: 'a' }, { $rename: { a: 'b' } } as never)).rejects.toBeInstanceOf(
      PortUsageError,
    );
    await expect(c.updateOne({ _id: 'a' }, { $set: { _id: 'b' } })).rejects.toBeInstanceOf(PortUsageError);
  });

  it('ensure is idempotent and drops indexes no longer declared', async () => {
    const spec = specFor({ indexes: [{ fields: [['slug', 1]], unique: true, serves: 'by slug' }] });
    await engine.ensure([spec]);
    await engine.ensure([spec]);
    const c = engine.collection<Item>(spec);
    await c.insertOne({ _id: 'a', slug: 's' });
    await expect(c.insertOne({ _id: 'b', slug: 's' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await engine.ensure([{ ...spec, indexes: [] }]);
    await c.insertOne({ _id: 'b', slug: 's' });
    expect(await c.count({})).toBe(2);
  });

  it('renames and drops whole collections; ensure rebuilds a renamed one’s indexes under its name', async () => {
    const staged = specFor(
      { indexes: [{ fields: [['slug', 1]], unique: true, serves: 'by slug' }] },
      'staged',
    );
    const live = { ...staged, name: staged.name.replace('staged', 'live') };
    await engine.ensure([staged]);
    await engine.collection<Item>(staged).insertMany([
      { _id: 'a', slug: 'x' },
      { _id: 'b', slug: 'y' },
    ]);
    await engine.rename(staged.name, live.name);
    await engine.ensure([live]);
    const names = await engine.names();
    expect(names).toContain(live.name);
    expect(names).not.toContain(staged.name);
    const c = engine.collection<Item>(live);
    expect(ids(await c.find({}, { sort: [['_id', 1]] }))).toEqual(['a', 'b']);
    await expect(c.insertOne({ _id: 'c', slug: 'x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await engine.drop(live.name);
    await engine.drop(live.name);
    expect(await engine.names()).not.toContain(live.name);
  });
});
