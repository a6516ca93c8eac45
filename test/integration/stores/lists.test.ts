/**
 * ListStore on both engines (issue 22, ADR 0013): a list is rows of `list_entries` read by keyset
 * in cursor.ts's order, and a counter document. Pages read from a cursor hold every entry once, in
 * order, when most entries share one millisecond and two stores appended them at once (issue 21
 * item 4); appending or removing an entry counts once however many calls race; index coverage is
 * checked on every query.
 */
import { LIST_COUNTS, LIST_ENTRIES, ListStore, type ListEntry, type Place } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const T = Date.parse('2026-03-01T12:00:00.000Z');
/** 0–4 at T − 1 ms, 5–134 at T, 135–139 at T + 1 ms. */
const N = 140;
const entry = (i: number): ListEntry => ({
  id: `post:${String(i).padStart(4, '0')}`,
  at: new Date(i < 5 ? T - 1 : i < 135 ? T : T + 1),
});
/** Newest first: later time first, and in one millisecond the greater id. */
const expected = Array.from({ length: N }, (_, i) => entry(N - 1 - i).id);
const spaced = (i: number): ListEntry => ({
  id: `e${String(i).padStart(4, '0')}`,
  at: new Date(T + i * 1000),
});

async function pages(lists: ListStore, key: string, size: number, from?: Place): Promise<string[][]> {
  const out: string[][] = [];
  let before = from;
  for (;;) {
    const page: ListEntry[] = [];
    for await (const e of lists.newest([key], before ? { before } : {})) if (page.push(e) === size) break;
    if (!page.length) return out;
    out.push(page.map((e) => e.id));
    const last = page[page.length - 1]!;
    before = { at: last.at.getTime(), id: last.id };
  }
}

async function ids(it: AsyncIterable<ListEntry>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of it) out.push(e.id);
  return out;
}

describe.each(engineFixtures())('ListStore on $name', (fx) => {
  let engine: Engine;
  let a: ListStore;
  let b: ListStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([LIST_ENTRIES, LIST_COUNTS]);
    // Two stores: two replicas of a service on one database.
    [a, b] = [new ListStore(engine), new ListStore(engine)];
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('two stores append 140 entries, 130 in one millisecond: pages of 7 hold each once, in order', async () => {
    await a.append('shared', [0, 1, 2, 3, 4].map(entry));
    const order = Array.from({ length: N - 5 }, (_, i) => 5 + ((i * 37) % (N - 5)));
    const batches: ListEntry[][] = [];
    for (let i = 0; i < order.length; i += 5) batches.push(order.slice(i, i + 5).map(entry));
    await Promise.all(batches.map((batch, i) => (i % 2 ? a : b).append('shared', batch)));
    const read = await pages(b, 'shared', 7);
    expect(read.flat()).toEqual(expected);
    expect(read.map((p) => p.length)).toEqual([...Array<number>(20).fill(7)]);
    expect((await a.head('shared')).count).toBe(N);
  });

  it('an ISO time as `before` (id empty) reads what is strictly older than its millisecond', async () => {
    const older = await pages(a, 'shared', 50, { at: T, id: '' });
    expect(older.flat()).toEqual(['post:0004', 'post:0003', 'post:0002', 'post:0001', 'post:0000']);
    // A cursor inside the millisecond: the rest of it, then the older ones.
    const rest = await pages(a, 'shared', 50, { at: T, id: 'post:0010' });
    expect(rest.flat()).toEqual(expected.slice(expected.indexOf('post:0010') + 1));
  });

  it('reads a list oldest first, past the first read (a long thread)', async () => {
    const n = 300;
    await a.appendAll([{ key: 'thread', entries: Array.from({ length: n }, (_, i) => spaced(n - 1 - i)) }]);
    expect(await ids(a.oldest('thread'))).toEqual(Array.from({ length: n }, (_, i) => spaced(i).id));
    expect((await ids(a.newest(['thread']))).slice(0, 3)).toEqual([
      spaced(299).id,
      spaced(298).id,
      spaced(297).id,
    ]);
  });

  it('one call appends to several lists and counts each, by tag too (dotted tags read back flat)', async () => {
    await a.appendAll([
      { key: 'multi:a', entries: [spaced(1), spaced(2)], tags: ['to.public', 'type.Note'] },
      { key: 'multi:b', entries: [spaced(3)], tags: ['to.server', 'type.Article'] },
      { key: 'multi:c', entries: [] },
    ]);
    expect(await a.head('multi:a')).toEqual({ count: 2, tags: { 'to.public': 2, 'type.Note': 2 } });
    expect(await a.head('multi:b')).toEqual({ count: 1, tags: { 'to.server': 1, 'type.Article': 1 } });
    expect(await a.head('multi:c')).toEqual({ count: 0, tags: {} });
    await a.uncount('multi:a', ['type.Note']);
    await a.retag('multi:a', { unread: 2 });
    await a.retag('multi:a', { unread: -1 });
    expect(await a.head('multi:a')).toEqual({
      count: 1,
      tags: { 'to.public': 2, 'type.Note': 1, unread: 1 },
    });
  });

  it('merges lists newest first; an id in both comes once', async () => {
    await a.append('m:1', [spaced(10), spaced(12), spaced(14)]);
    await a.append('m:2', [spaced(11), spaced(12), spaced(13)]);
    expect(await ids(a.newest(['m:1', 'm:2']))).toEqual([14, 13, 12, 11, 10].map((i) => spaced(i).id));
    const before = { at: spaced(13).at.getTime(), id: spaced(13).id };
    expect(await ids(a.newest(['m:1', 'm:2'], { before }))).toEqual([12, 11, 10].map((i) => spaced(i).id));
    const opened = await a.open(['m:1', 'm:2']);
    expect(opened.heads.map((h) => h.count)).toEqual([3, 3]);
    expect(await ids(opened.entries)).toHaveLength(5);
  });

  it('an entry appended by twenty racing calls is stored and counted once', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).append('dup', [spaced(1)], ['to.public'])),
    );
    expect(await ids(a.newest(['dup']))).toEqual([spaced(1).id]);
    expect(await a.head('dup')).toEqual({ count: 1, tags: { 'to.public': 1 } });
  });

  it('fifty racing appends of different entries to one list lose none, and count each', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).append('race', [spaced(i)], ['to.public'])),
    );
    expect(await ids(a.newest(['race']))).toEqual(Array.from({ length: 50 }, (_, i) => spaced(49 - i).id));
    expect(await a.head('race')).toEqual({ count: 50, tags: { 'to.public': 50 } });
  });

  it('of ten racing removals of one entry exactly one removes it and uncounts it', async () => {
    const removed = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).remove('race', spaced(7).id, undefined, ['to.public']),
      ),
    );
    expect(removed.filter(Boolean)).toHaveLength(1);
    expect(await a.holds('race', spaced(7).id)).toBe(false);
    expect(await a.holds('race', spaced(8).id)).toBe(true);
    expect(await a.head('race')).toEqual({ count: 49, tags: { 'to.public': 49 } });
    // Listed again after its removal (a restored post): stored and counted again.
    await a.append('race', [spaced(7)], ['to.public']);
    expect((await a.head('race')).count).toBe(50);
  });

  it('drops a list: its entries and counters go, other lists stay', async () => {
    await a.drop('race');
    expect(await ids(a.newest(['race']))).toEqual([]);
    expect(await a.head('race')).toEqual({ count: 0, tags: {} });
    expect((await a.head('dup')).count).toBe(1);
  });
});
