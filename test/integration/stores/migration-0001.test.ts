/**
 * Migration 0001 on both engines (ADR 0032): `list_entries` rows stored under the former
 * `<list>|<item>` key move to `entryKey` (item first). Lists read the same items in the same
 * order afterwards, counters do not move, key lookups (`holds`, `remove`) find the moved rows, and
 * the migration is idempotent: run twice, and with both forms of a row present (a crash between
 * the insert and the delete).
 */
import {
  ALL_MIGRATIONS,
  entryKey,
  LIST_COUNTS,
  LIST_ENTRIES,
  ListStore,
  MIGRATIONS,
  moveListKeys,
  runMigrations,
  type ListEntry,
  type ListEntryRow,
  type MigrationLog,
} from '@agora/common/db';
import type { Collection, Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const LISTS = ['timeline:c1', 'timeline:c2', 'author:u1', 'posts:public'];
/** 60 posts, some sharing a millisecond; each in 2–4 lists. */
const entries: ListEntry[] = Array.from({ length: 60 }, (_, i) => ({
  id: `post:${String(i).padStart(3, '0')}`,
  at: new Date(T + Math.floor(i / 3)),
  by: `user:${i % 4}`,
}));
const listsOf = (i: number) => LISTS.filter((_, k) => (i + k) % 4 !== 3 || i % 2 === 0);
const oldKey = (r: Pick<ListEntryRow, 'list' | 'item'>) => `${r.list}|${r.item}`;
const quiet = { info: () => undefined, warn: () => undefined } as unknown as MigrationLog;

describe.each(engineFixtures())('migration 0001 (list keys item-first) on $name', (fx) => {
  let engine: Engine;
  let lists: ListStore;
  let rows: Collection<ListEntryRow>;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([LIST_ENTRIES, LIST_COUNTS, MIGRATIONS]);
    lists = new ListStore(engine);
    rows = engine.collection<ListEntryRow>(LIST_ENTRIES);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  async function all(): Promise<ListEntryRow[]> {
    const out: ListEntryRow[] = [];
    for await (const page of rows.scan(100)) out.push(...page);
    return out;
  }
  async function read(): Promise<
    Record<string, { ids: string[]; count: number; tags: Record<string, number> }>
  > {
    const out: Record<string, { ids: string[]; count: number; tags: Record<string, number> }> = {};
    for (const key of LISTS) {
      const ids: string[] = [];
      for await (const e of lists.newest([key])) ids.push(e.id);
      out[key] = { ids, ...(await lists.head(key)) };
    }
    return out;
  }
  /** Rewrites every row to the former key: the database as an older release left it. */
  async function toOldKeys(keepNew = false): Promise<void> {
    const current = await all();
    await rows.insertEach(current.map((r) => ({ ...r, _id: oldKey(r) })));
    if (!keepNew) await rows.deleteMany({ _id: { $in: current.map((r) => r._id) } });
  }

  it('moves every row to the item-first key; lists, order and counters stay the same', async () => {
    // A new post's rows share their key's start, so they sit side by side in the primary index.
    expect(entryKey('timeline:c1', 'post:000')).toBe('post:000|timeline:c1');
    await lists.appendAll(
      entries.flatMap((e, i) => listsOf(i).map((key) => ({ key, entries: [e], tags: ['to.public'] }))),
    );
    const before = await read();
    const total = (await all()).length;
    await toOldKeys();
    expect((await all()).every((r) => r._id === oldKey(r))).toBe(true);
    // Lists are read by their fields, so they read the same before the migration too.
    expect(await read()).toEqual(before);

    expect(await runMigrations(engine, ALL_MIGRATIONS, { log: quiet })).toEqual({
      ran: ['0001-list-keys-item-first'],
      waited: [],
    });
    const after = await all();
    expect(after).toHaveLength(total);
    expect(after.every((r) => r._id === entryKey(r.list, r.item))).toBe(true);
    expect(await read()).toEqual(before);
    // Key lookups find the moved rows.
    expect(await lists.holds('author:u1', entries[0]!.id)).toBe(true);
    expect(await lists.remove('timeline:c1', entries[0]!.id, undefined, ['to.public'])).toBe(true);
    expect(await lists.holds('timeline:c1', entries[0]!.id)).toBe(false);
    expect((await lists.head('timeline:c1')).count).toBe(before['timeline:c1']!.count - 1);
    await lists.appendAll([{ key: 'timeline:c1', entries: [entries[0]!], tags: ['to.public'] }]);
    expect(await read()).toEqual(before);
  });

  it('is idempotent: run again, nothing changes', async () => {
    const before = await read();
    const rowsBefore = await all();
    await moveListKeys(engine, quiet, 7);
    expect(await all()).toEqual(rowsBefore);
    expect(await read()).toEqual(before);
  });

  it('with both forms of a row present (a crash between insert and delete), the old one goes', async () => {
    const before = await read();
    const total = (await all()).length;
    await toOldKeys(true);
    expect((await all()).length).toBe(total * 2);
    // Small batches: rows inserted and deleted while the scan walks past them.
    await moveListKeys(engine, quiet, 7);
    const after = await all();
    expect(after).toHaveLength(total);
    expect(after.every((r) => r._id === entryKey(r.list, r.item))).toBe(true);
    expect(await read()).toEqual(before);
  });

  it('half moved, half not, in small batches: every row ends under its new key once', async () => {
    const before = await read();
    const current = await all();
    const half = current.filter((_, i) => i % 2 === 0);
    await rows.insertEach(half.map((r) => ({ ...r, _id: oldKey(r) })));
    await rows.deleteMany({ _id: { $in: half.map((r) => r._id) } });
    await moveListKeys(engine, quiet, 5);
    const after = await all();
    expect(after).toHaveLength(current.length);
    expect(after.every((r) => r._id === entryKey(r.list, r.item))).toBe(true);
    expect(await read()).toEqual(before);
  });
});
