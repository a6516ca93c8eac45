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
  LIST_BUCKET_SIZE,
  ListStore,
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
