/**
 * Batched list appends (ADR 0011) on the embedded engine as standalone wires it (FerretDB on
 * SQLite, writes queued one at a time): one call appends to several lists; many concurrent
 * appends from two stores (each with its own sequence hint) lose no entry and keep the
 * newest-first order across buckets; an entry placed from a stale hint (the list was dropped and
 * written again behind this store's back, as a restore does) is still read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import {
  LEGACY_BUCKET_SIZE,
  LIST_BUCKET_SIZE,
  ListStore,
  RANGE_PAGE,
  registerModels,
  serializeWrites,
  spawnFerretDB,
  syncIndexes,
  type FerretProcess,
  type ListEntry,
} from '@agora/common/db';
import { testEnv } from '../../harness/env';

let dir: string;
let ferret: FerretProcess;
let conn: mongoose.Connection;
let models: ReturnType<typeof registerModels>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-lists-'));
  ferret = await spawnFerretDB({ bin: testEnv.ferretdbBin, dataDir: dir, sqliteSync: 'normal' });
  conn = await mongoose.createConnection(`${ferret.url}lists`).asPromise();
  serializeWrites(conn.db!);
  models = registerModels(conn);
  await syncIndexes(models);
  ferret.ensureIdIndexes();
});

afterAll(async () => {
  await conn?.close();
  await ferret?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const store = () => new ListStore(models.ListHead, models.ListBucket);
const entry = (i: number): ListEntry => ({
  id: `e${String(i).padStart(5, '0')}`,
  at: new Date(1e12 + i * 1000),
});

async function all(lists: ListStore, key: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of lists.newest([key])) out.push(e.id);
  return out;
}

test('one call appends to several lists and counts each', async () => {
  const lists = store();
  await lists.appendAll([
    { key: 'multi:a', entries: [entry(1), entry(2)], tags: ['to.public'] },
    { key: 'multi:b', entries: [entry(3)], tags: ['to.server'] },
    { key: 'multi:c', entries: [] },
  ]);
  expect((await lists.head('multi:a')).count).toBe(2);
  expect((await lists.head('multi:b')).count).toBe(1);
  expect((await lists.head('multi:c')).count).toBe(0);
  expect(await all(lists, 'multi:a')).toEqual(['e00002', 'e00001']);
});

test('tags with dots in their names are counted and read back under those names', async () => {
  const lists = store();
  await lists.append('dotted', [entry(1), entry(2)], ['to.public', 'type.Note']);
  await lists.append('dotted', [entry(3)], ['to.server', 'type.Article']);
  await lists.uncount('dotted', ['type.Note']);
  expect((await lists.head('dotted')).tags).toEqual({
    'to.public': 2,
    'to.server': 1,
    'type.Note': 1,
    'type.Article': 1,
  });
  const opened = await lists.open(['dotted']);
  expect(opened.heads[0]!.tags['to.public']).toBe(2);
});

test('concurrent appends from two stores keep every entry, newest first, across buckets', async () => {
  const [p1, p2] = [store(), store()];
  const n = LIST_BUCKET_SIZE * 2 + 50;
  // Twenty appends in flight at once, alternating between the stores.
  for (let i = 0; i < n; i += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, (_, j) =>
        (j % 2 ? p1 : p2).append('conc', [entry(i + j)], ['type.Note']),
      ),
    );
  const expected = Array.from({ length: n }, (_, i) => entry(n - 1 - i).id);
  expect(await all(store(), 'conc')).toEqual(expected);
  expect((await store().head('conc')).count).toBe(n);
  // A page reads the head and a bucket or two, not the whole list.
  const page: string[] = [];
  for await (const e of store().newest(['conc'])) if (page.push(e.id) === 20) break;
  expect(page).toEqual(expected.slice(0, 20));
});

test('an entry appended from a stale sequence hint is still read', async () => {
  const stale = store();
  for (let i = 0; i < LIST_BUCKET_SIZE + 10; i++) await stale.append('rebuilt', [entry(i)]);
  // Another process drops the list and writes it again, shorter (as a restore would).
  const other = store();
  await other.drop('rebuilt');
  await other.append('rebuilt', [entry(1000)]);
  // This process still believes the list is long: its entry goes to a bucket past the new sequence.
  await stale.append('rebuilt', [entry(1001)]);
  expect(await all(store(), 'rebuilt')).toEqual(['e01001', 'e01000']);
  expect((await store().head('rebuilt')).count).toBe(2);
  await store().drop('rebuilt');
  expect(await all(store(), 'rebuilt')).toEqual([]);
  expect(await models.ListBucket.countDocuments({ _id: { $regex: '^rebuilt#' } })).toBe(0);
});

test('appends that arrive while a write runs are written together, each counted once', async () => {
  // A second connection with command monitoring: what reaches the database, not what was called.
  const watched = await mongoose.createConnection(`${ferret.url}lists?monitorCommands=true`).asPromise();
  try {
    serializeWrites(watched.db!);
    const wm = registerModels(watched);
    const bucketWrites: number[] = [];
    watched
      .getClient()
      .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) => {
        if (e.commandName === 'update' && e.command.update === 'list_buckets')
          bucketWrites.push((e.command.updates as unknown[]).length);
      });
    const lists = new ListStore(wm.ListHead, wm.ListBucket);
    const n = 60;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        lists.appendAll([
          { key: 'group:a', entries: [entry(i)], tags: [i % 2 ? 'type.Note' : 'type.Article'] },
          { key: 'group:b', entries: [entry(i)] },
        ]),
      ),
    );
    // The first call writes alone; the 59 that arrived meanwhile go in one more write.
    expect(bucketWrites.length).toBeLessThanOrEqual(2);
    const expected = Array.from({ length: n }, (_, i) => entry(n - 1 - i).id);
    expect(await all(store(), 'group:a')).toEqual(expected);
    expect(await all(store(), 'group:b')).toEqual(expected);
    expect((await store().head('group:a')).count).toBe(n);
    expect((await store().head('group:a')).tags).toEqual({ 'type.Note': n / 2, 'type.Article': n / 2 });
    expect((await store().head('group:b')).count).toBe(n);
  } finally {
    await watched.close();
  }
});

/** Appends `n` entries in calls of one bucket's worth (times i × 1 s from `from`). */
async function fill(lists: ListStore, key: string, n: number, from = 0): Promise<void> {
  for (let i = 0; i < n; i += LIST_BUCKET_SIZE)
    await lists.append(
      key,
      Array.from({ length: Math.min(LIST_BUCKET_SIZE, n - i) }, (_, j) => entry(from + i + j)),
      ['type.Note'],
    );
}

type RawHead = { hi?: Record<string, unknown>; phi?: Record<string, unknown>; arch?: number; ihi?: Date };
const rawHead = async (key: string) => models.ListHead.findOne({ _id: key }).lean<RawHead>();

test('a long list keeps only its newest range page on the head; every entry reads back in order', async () => {
  const lists = store();
  const n = LIST_BUCKET_SIZE * RANGE_PAGE * 2 + 10; // into the third range page
  await fill(lists, 'long', n);
  const h = await rawHead('long');
  expect(h?.arch).toBe(2);
  expect(Object.keys(h?.hi ?? {}).length).toBeLessThanOrEqual(RANGE_PAGE);
  // The moved pages' ranges are in the index document; the head keeps the index's range only.
  expect(h?.phi).toBeUndefined();
  expect(Object.keys((await rawHead('long~i'))?.phi ?? {}).sort()).toEqual(['0', '1']);
  expect(h?.ihi).toEqual(entry(LIST_BUCKET_SIZE * RANGE_PAGE * 2 - 1).at);
  const expected = Array.from({ length: n }, (_, i) => entry(n - 1 - i).id);
  expect(await all(store(), 'long')).toEqual(expected);
  // A page deep in the list, by time, reads the moved pages' buckets.
  const before = { at: entry(LIST_BUCKET_SIZE * 3).at.getTime(), id: '' };
  const deep: string[] = [];
  for await (const e of store().newest(['long'], { before })) if (deep.push(e.id) === 5) break;
  expect(deep).toEqual(expected.slice(n - LIST_BUCKET_SIZE * 3, n - LIST_BUCKET_SIZE * 3 + 5));
  // An entry in a moved page is found and removed; the count follows.
  expect(await store().remove('long', entry(7).id, entry(7).at, ['type.Note'])).toBe(true);
  expect((await store().head('long')).count).toBe(n - 1);
  expect(await all(store(), 'long')).toEqual(expected.filter((id) => id !== entry(7).id));
  // Dropping the list removes its head, its index, its range pages and every bucket.
  await store().drop('long');
  expect(await models.ListHead.countDocuments({ _id: { $regex: '^long' } })).toBe(0);
  expect(await models.ListBucket.countDocuments({ _id: { $regex: '^long#' } })).toBe(0);
});

test('an old entry appended late to a long list (a backfill) is read at its time', async () => {
  const lists = store();
  const n = LIST_BUCKET_SIZE * RANGE_PAGE + 20;
  await fill(lists, 'backfilled', n, 100);
  await lists.append('backfilled', [entry(50)]); // older than every entry: lands in the newest bucket
  const ids = await all(store(), 'backfilled');
  expect(ids).toHaveLength(n + 1);
  expect(ids.at(-1)).toBe(entry(50).id);
  expect(ids[0]).toBe(entry(100 + n - 1).id);
});

test('a list written with the former bucket size and every range on its head is read and extended', async () => {
  const key = 'legacy';
  const buckets = RANGE_PAGE + 2; // more than one range page of 200-entry buckets
  const n = buckets * LEGACY_BUCKET_SIZE;
  const lo: Record<string, Date> = {};
  const hi: Record<string, Date> = {};
  for (let b = 0; b < buckets; b++) {
    const items = Array.from({ length: LEGACY_BUCKET_SIZE }, (_, j) => entry(b * LEGACY_BUCKET_SIZE + j));
    await models.ListBucket.collection.insertOne({ _id: `${key}#${b}` as never, items });
    lo[b] = items[0]!.at;
    hi[b] = items.at(-1)!.at;
  }
  await models.ListHead.collection.insertOne({ _id: key as never, seq: n, count: n, lo, hi });
  const lists = store();
  await lists.append(key, [entry(n), entry(n + 1)]);
  const h = await rawHead(key);
  expect(h?.arch).toBe(1);
  expect(Object.keys(h?.hi ?? {}).length).toBeLessThanOrEqual(RANGE_PAGE);
  const ids = await all(store(), key);
  expect(ids).toEqual(Array.from({ length: n + 2 }, (_, i) => entry(n + 1 - i).id));
  expect((await store().head(key)).count).toBe(n + 2);
});

test('entries are stored packed, one string each; a bucket also holding subdocuments reads and removes both', async () => {
  const key = 'mixed';
  const old = [entry(1), { ...entry(2), by: 'ann' }];
  await models.ListBucket.collection.insertOne({ _id: `${key}#0` as never, items: old });
  await models.ListHead.collection.insertOne({
    _id: key as never,
    seq: 2,
    count: 2,
    bs: LIST_BUCKET_SIZE,
    lo: { 0: old[0]!.at },
    hi: { 0: old[1]!.at },
  });
  const lists = store();
  await lists.append(key, [{ ...entry(3), by: 'bob' }, entry(4)]);
  const raw = (await models.ListBucket.collection.findOne({ _id: `${key}#0` as never }))?.items as unknown[];
  expect(raw.slice(0, 2)).toEqual(old);
  expect(raw.slice(2).every((el) => typeof el === 'string')).toBe(true);
  const read: ListEntry[] = [];
  for await (const e of store().newest([key])) read.push(e);
  expect(read).toEqual([entry(4), { ...entry(3), by: 'bob' }, { ...entry(2), by: 'ann' }, entry(1)]);
  expect(await lists.remove(key, entry(2).id, entry(2).at)).toBe(true);
  expect(await lists.remove(key, entry(3).id, entry(3).at)).toBe(true);
  expect(await all(store(), key)).toEqual([entry(4).id, entry(1).id]);
  expect((await store().head(key)).count).toBe(2);
});

test('a head that still holds moved pages’ ranges (written before the index) is read, and its next move takes them to the index', async () => {
  const key = 'preindex';
  const lists = store();
  const n = LIST_BUCKET_SIZE * RANGE_PAGE + 5; // one page moved
  await fill(lists, key, n);
  // Put the head back as the code before the index left it: page ranges on the head.
  const index = await models.ListHead.collection.findOne({ _id: `${key}~i` as never });
  await models.ListHead.collection.updateOne(
    { _id: key as never },
    { $set: { plo: index?.plo, phi: index?.phi }, $unset: { ilo: '', ihi: '' } },
  );
  await models.ListHead.collection.deleteOne({ _id: `${key}~i` as never });
  const expected = (m: number) => Array.from({ length: m }, (_, i) => entry(m - 1 - i).id);
  expect(await all(store(), key)).toEqual(expected(n));
  // Into the third page: the head's old page ranges and the new one move to the index.
  const more = LIST_BUCKET_SIZE * RANGE_PAGE;
  await fill(lists, key, more, n);
  const h = await rawHead(key);
  expect(h?.phi).toBeUndefined();
  expect(Object.keys((await rawHead(`${key}~i`))?.phi ?? {}).sort()).toEqual(['0', '1']);
  expect(await all(store(), key)).toEqual(expected(n + more));
  expect(await store().remove(key, entry(3).id, entry(3).at)).toBe(true);
  expect(await all(store(), key)).toEqual(expected(n + more).filter((id) => id !== entry(3).id));
});

test('a long list read oldest first: every entry in order, and the first page reads only the oldest buckets', async () => {
  const key = 'ascending';
  const lists = store();
  const n = LIST_BUCKET_SIZE * RANGE_PAGE * 2 + 10; // moved pages and the index
  await fill(lists, key, n);
  await lists.append(key, [{ id: 'late', at: new Date(1e12 + 500) }]); // an old entry appended late
  const asc: string[] = [];
  for await (const e of store().oldest(key)) asc.push(e.id);
  const expected = Array.from({ length: n }, (_, i) => entry(i).id);
  expected.splice(1, 0, 'late'); // between entry 0 (1e12) and entry 1 (1e12 + 1000)
  expect(asc).toEqual(expected);
  // The first ten: the head, the index, a page and the oldest buckets, not the list's 130.
  const watched = await mongoose.createConnection(`${ferret.url}lists?monitorCommands=true`).asPromise();
  try {
    const wm = registerModels(watched);
    let reads = 0;
    watched.getClient().on('commandStarted', (e: { commandName: string }) => {
      if (e.commandName === 'find') reads++;
    });
    const first: string[] = [];
    for await (const e of new ListStore(wm.ListHead, wm.ListBucket).oldest(key))
      if (first.push(e.id) === 10) break;
    expect(first).toEqual(expected.slice(0, 10));
    expect(reads).toBeLessThanOrEqual(8);
  } finally {
    await watched.close();
  }
});
