import { GroupCommit } from './group-commit';

/** A write that takes a turn of the event loop and records what each call carried. */
function recorder(fail?: (items: number[]) => boolean) {
  const writes: number[][] = [];
  const commit = new GroupCommit<number>(async (items) => {
    await new Promise((r) => setImmediate(r));
    writes.push(items);
    if (fail?.(items)) throw new Error(`write of ${items.join(',')} failed`);
  });
  return { writes, commit };
}

test('a lone item is written at once, alone', async () => {
  const { writes, commit } = recorder();
  await commit.add(1);
  expect(writes).toEqual([[1]]);
});

test('items that arrive while a write runs are written together by the next one', async () => {
  const { writes, commit } = recorder();
  await Promise.all([1, 2, 3, 4, 5].map((i) => commit.add(i)));
  expect(writes).toEqual([[1], [2, 3, 4, 5]]);
  await commit.add(6);
  expect(writes.at(-1)).toEqual([6]);
});

test('a failed write rejects exactly the calls it carried; later writes go on', async () => {
  const { writes, commit } = recorder((items) => items.includes(3));
  const results = await Promise.allSettled([1, 2, 3].map((i) => commit.add(i)));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
  await expect(commit.add(4)).resolves.toBeUndefined();
  expect(writes).toEqual([[1], [2, 3], [4]]);
});

test('a batch is taken when its turn runs, so it holds what arrived while the turn was awaited', async () => {
  const writes: number[][] = [];
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  // A turn that starts only once `open` is called (the write queue ahead of it draining).
  const commit = new GroupCommit<number>(
    (items) => {
      writes.push(items);
      return Promise.resolve();
    },
    async (run) => {
      await gate;
      await run();
    },
  );
  const calls = [commit.add(1)];
  await new Promise((r) => setImmediate(r));
  calls.push(commit.add(2), commit.add(3));
  open();
  await Promise.all(calls);
  expect(writes).toEqual([[1, 2, 3]]);
});

test('with a linger, items that arrive during it share the write; hurry ends it at once', async () => {
  const writes: number[][] = [];
  const commit = new GroupCommit<number>(
    (items) => {
      writes.push(items);
      return Promise.resolve();
    },
    undefined,
    () => 60_000,
  );
  const first = commit.add(1);
  const second = commit.add(2);
  await new Promise((r) => setTimeout(r, 20));
  expect(writes).toEqual([]); // still lingering
  commit.hurry();
  await Promise.all([first, second]);
  expect(writes).toEqual([[1, 2]]);
});

test('a hurry during a write makes the next batch skip its linger', async () => {
  const writes: number[][] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const commit = new GroupCommit<number>(
    async (items) => {
      writes.push(items);
      if (items.includes(1)) await held;
    },
    undefined,
    () => 60_000,
  );
  const first = commit.add(1);
  commit.hurry(); // the first batch goes without lingering
  await new Promise((r) => setTimeout(r, 10));
  expect(writes).toEqual([[1]]);
  const second = commit.add(2); // arrives while the first write runs
  commit.hurry();
  release();
  await Promise.all([first, second]);
  expect(writes).toEqual([[1], [2]]);
});
