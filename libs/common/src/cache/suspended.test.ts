import { memoryStampStore, STAMPS } from './stamps';
import { suspendedAccounts } from './suspended';

/** A source that counts its reads, over a list the test changes. */
function source(initial: string[]) {
  const state = { ids: initial, reads: 0 };
  return {
    state,
    suspendedIds: () => {
      state.reads++;
      return Promise.resolve([...state.ids]);
    },
  };
}

test('the set is read once per stamp, and again after the stamp moves', async () => {
  const stamps = memoryStampStore();
  const src = source(['@alice@a.test']);
  const set = suspendedAccounts(src, stamps);
  expect(await set.anyOf('@bob@a.test', '@alice@a.test')).toBe(true);
  expect(await set.anyOf('@bob@a.test', null, undefined)).toBe(false);
  expect(src.state.reads).toBe(1);
  src.state.ids = [];
  // Not re-read until the stamp moves: the users store moves it on every delete and restore.
  expect(await set.anyOf('@alice@a.test')).toBe(true);
  await stamps.bump([STAMPS.suspended]);
  expect(await set.anyOf('@alice@a.test')).toBe(false);
  expect(src.state.reads).toBe(2);
});

test('concurrent readers under one stamp share one read; a read begun after a bump does not join an older one', async () => {
  const stamps = memoryStampStore();
  const src = source(['@alice@a.test']);
  const set = suspendedAccounts(src, stamps);
  const [a, b] = await Promise.all([set.ids(), set.ids()]);
  expect(a).toBe(b);
  expect(src.state.reads).toBe(1);
  await stamps.bump([STAMPS.suspended]);
  src.state.ids = ['@carol@a.test'];
  expect([...(await set.ids())]).toEqual(['@carol@a.test']);
});

test('while the stamp store cannot answer, the cached set is used for a few seconds', async () => {
  const stamps = memoryStampStore();
  let down = false;
  const flaky = { read: (keys: string[]) => (down ? Promise.resolve(null) : stamps.read(keys)) };
  const src = source(['@alice@a.test']);
  const set = suspendedAccounts(src, flaky);
  await set.ids();
  down = true;
  expect(await set.anyOf('@alice@a.test')).toBe(true);
  expect(src.state.reads).toBe(1);
});
