import { memoryStampStore } from './stamps';

test('the memory store: bumpAll moves every stamp, bumped before or not', async () => {
  const s = memoryStampStore();
  await s.bump(['c:1']);
  const before = (await s.read(['c:1', 'c:2']))!;
  await s.bumpAll();
  const after = (await s.read(['c:1', 'c:2']))!;
  expect(after[0]).not.toBe(before[0]);
  expect(after[1]).not.toBe(before[1]);
  await s.bump(['c:2']);
  expect((await s.read(['c:2']))![0]).not.toBe(after[1]);
});

test('the memory store holds at most maxKeys keys, however many were bumped', async () => {
  const s = memoryStampStore({ maxKeys: 100 });
  for (let i = 0; i < 1_000; i++) await s.bump([`p:${i}`, 'c:1']);
  expect(s.size).toBe(100);
});

test('a key bumped recently keeps its stamp while older keys are forgotten', async () => {
  const s = memoryStampStore({ maxKeys: 10 });
  await s.bump(['u:hot']);
  for (let i = 0; i < 9; i++) await s.bump([`p:${i}`]);
  // Bumped again after the others: the oldest by last bump is now p:0, not u:hot (first inserted).
  await s.bump(['u:hot']);
  const before = (await s.read(['u:hot']))![0];
  // Past the bound: five keys must be forgotten, the least recently bumped ones.
  for (let i = 9; i < 14; i++) await s.bump([`p:${i}`]);
  expect(s.size).toBe(10);
  expect((await s.read(['u:hot']))![0]).toBe(before);
});

test('past its bound, no key ever reads again a stamp it had before its last bump', async () => {
  const maxKeys = 4;
  const s = memoryStampStore({ maxKeys });
  const keys = Array.from({ length: 40 }, (_, i) => `k:${i}`);
  // Per key: every value read so far, and those read before its last bump (now stale).
  const seen = new Map<string, Set<number>>(keys.map((k) => [k, new Set()]));
  const stale = new Map<string, Set<number>>(keys.map((k) => [k, new Set()]));
  const last = new Map<string, number>();
  let x = 12345; // a fixed linear congruential sequence: the same run every time
  const next = (n: number) => (x = (x * 1103515245 + 12345) % 2 ** 31) % n;
  for (let step = 0; step < 5_000; step++) {
    const picked = [keys[next(keys.length)]!, keys[next(keys.length)]!];
    if (next(3) === 0) {
      for (const k of picked) for (const v of seen.get(k)!) stale.get(k)!.add(v);
      await s.bump(picked);
      continue;
    }
    const values = (await s.read(picked))!;
    picked.forEach((k, i) => {
      const v = values[i]!;
      expect(stale.get(k)!.has(v)).toBe(false);
      expect(v).toBeGreaterThanOrEqual(last.get(k) ?? 0);
      seen.get(k)!.add(v);
      last.set(k, v);
    });
  }
  expect(s.size).toBeLessThanOrEqual(maxKeys);
});

test('bumpAll moves every stamp past any value read before, remembered or forgotten', async () => {
  const s = memoryStampStore({ maxKeys: 2 });
  await s.bump(['a', 'b', 'c', 'd']);
  const before = (await s.read(['a', 'b', 'c', 'd', 'never']))!;
  await s.bumpAll();
  const after = (await s.read(['a', 'b', 'c', 'd', 'never']))!;
  for (const v of after) expect(v).toBeGreaterThan(Math.max(...before));
});
