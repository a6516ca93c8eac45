import { memoryReplayGuard } from './replay';

test('the memory guard answers true for a hash seen within its time to live, false after', async () => {
  let now = 1_000_000;
  const guard = memoryReplayGuard({ now: () => now });
  expect(await guard.seen('a', 5000)).toBe(false);
  expect(await guard.seen('a', 5000)).toBe(true);
  expect(await guard.seen('b', 5000)).toBe(false);
  now += 5001;
  expect(await guard.seen('a', 5000)).toBe(false);
  expect(await guard.seen('a', 5000)).toBe(true);
});

test('expired hashes are swept rather than kept forever', async () => {
  let now = 0;
  const guard = memoryReplayGuard({ now: () => now });
  for (let i = 0; i < 100; i++) await guard.seen(`h${i}`, 1000);
  expect(guard.size).toBe(100);
  now = 120_000;
  expect(await guard.seen('h0', 1000)).toBe(false);
  expect(guard.size).toBe(1);
});
