/**
 * A list read page by page from a cursor (a place: time and id, lists/cursor.ts) holds every
 * entry once, in order, when most entries share one millisecond and two replicas appended them
 * at once, so a millisecond spans several buckets and pages end inside it (issue 21 item 4).
 * On the real FerretDB the suite runs.
 */
import { ListStore, type ListEntry, type Place } from '@agora/common/db';
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('list_cursors', 'social.test');
const T = Date.parse('2026-03-01T12:00:00.000Z');
/** 0–4 at T − 1 ms, 5–134 at T (130, nearly three buckets), 135–139 at T + 1 ms. */
const N = 140;
const entry = (i: number): ListEntry => ({
  id: `post:${String(i).padStart(4, '0')}`,
  at: new Date(i < 5 ? T - 1 : i < 135 ? T : T + 1),
});
/** Newest first: later time first, and in one millisecond the greater id. */
const expected = Array.from({ length: N }, (_, i) => entry(N - 1 - i).id);

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

test('two replicas append 140 entries, 130 in one millisecond: pages of 7 hold each once, in order', async () => {
  const [a, b] = [
    new ListStore(t.models.ListHead, t.models.ListBucket),
    new ListStore(t.models.ListHead, t.models.ListBucket),
  ];
  // The older ones first; then the rest interleaved, out of order, in small batches from both
  // stores at once. So later buckets hold only entries of T and T + 1: a bucket whose oldest
  // entry shares the cursor's millisecond must still be read.
  await a.append('shared', [0, 1, 2, 3, 4].map(entry));
  const order = Array.from({ length: N - 5 }, (_, i) => 5 + ((i * 37) % (N - 5)));
  const batches: ListEntry[][] = [];
  for (let i = 0; i < order.length; i += 5) batches.push(order.slice(i, i + 5).map(entry));
  await Promise.all(batches.map((batch, i) => (i % 2 ? a : b).append('shared', batch)));
  const heads = await t.models.ListHead.findOne({ _id: 'shared' }).lean<{ lo: Record<string, Date> }>();
  const los = Object.values(heads!.lo).map((d) => new Date(d).getTime());
  expect(los.filter((lo) => lo === T).length).toBeGreaterThan(0);

  const read = await pages(new ListStore(t.models.ListHead, t.models.ListBucket), 'shared', 7);
  expect(read.flat()).toEqual(expected);
  expect(read.map((p) => p.length)).toEqual([...Array<number>(20).fill(7)]);
});

test('an ISO time as `before` (id empty) reads what is strictly older than its millisecond', async () => {
  const lists = new ListStore(t.models.ListHead, t.models.ListBucket);
  const older = await pages(lists, 'shared', 50, { at: T, id: '' });
  expect(older.flat()).toEqual(['post:0004', 'post:0003', 'post:0002', 'post:0001', 'post:0000']);
  // A cursor inside the millisecond: the rest of it, then the older ones.
  const rest = await pages(lists, 'shared', 50, { at: T, id: 'post:0010' });
  expect(rest.flat()).toEqual(expected.slice(expected.indexOf('post:0010') + 1));
});
