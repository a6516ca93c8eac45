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
