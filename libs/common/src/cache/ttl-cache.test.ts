import { TtlCache } from './ttl-cache';
import { memoryStampStore } from './stamps';

describe('TtlCache', () => {
  test('keeps values until their time is up', async () => {
    const c = new TtlCache<number>(10, 40);
    c.set('a', 1);
    expect(c.get('a')).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  test('evicts the least recently used entry past its size', () => {
    const c = new TtlCache<number>(2, 10_000);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
  });

  test('concurrent misses on one key share one computation', async () => {
    const c = new TtlCache<number>(10, 10_000);
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return 42;
    };
    const all = await Promise.all(Array.from({ length: 20 }, () => c.getOrCompute('k', compute)));
    expect(all).toEqual(Array(20).fill(42));
    expect(runs).toBe(1);
    expect(await c.getOrCompute('k', compute)).toBe(42);
    expect(runs).toBe(1);
  });

  test('a failed computation is not kept and reaches every waiter', async () => {
    const c = new TtlCache<number>(10, 10_000);
    const failing = () => Promise.reject(new Error('boom'));
    const results = await Promise.allSettled([c.getOrCompute('k', failing), c.getOrCompute('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await c.getOrCompute('k', () => Promise.resolve(7))).toBe(7);
  });

  test('size 0 or time 0 turns it off', () => {
    for (const c of [new TtlCache<number>(0, 1000), new TtlCache<number>(10, 0)]) {
      expect(c.enabled).toBe(false);
      c.set('a', 1);
      expect(c.get('a')).toBeUndefined();
    }
  });
});

describe('memoryStampStore', () => {
  test('stamps start at 0 and move on each bump, past every value read before', async () => {
    const s = memoryStampStore();
    expect(await s.read(['a', 'b'])).toEqual([0, 0]);
    await s.bump(['a', 'a']);
    const [a1] = (await s.read(['a']))!;
    await s.bump(['a', 'b']);
    const [a2, b1, c] = (await s.read(['a', 'b', 'c']))!;
    expect(a1).toBeGreaterThan(0);
    expect(a2).toBeGreaterThan(a1!);
    expect(b1).toBeGreaterThan(0);
    expect(c).toBe(0);
  });
});
