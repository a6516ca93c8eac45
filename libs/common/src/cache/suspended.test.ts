import { memoryStampStore, STAMPS } from './stamps';
import { withLogContext } from '../logger/context';
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

/** A stamp store that counts its reads. */
function countingStamps() {
  const stamps = memoryStampStore();
  const state = { reads: 0 };
  return {
    state,
    stamps,
    read: (keys: string[]) => {
      state.reads++;
      return stamps.read(keys);
    },
  };
}

test('within one request the stamp is read once, however many checks it makes; the next request reads it again', async () => {
  const counting = countingStamps();
  const src = source(['@alice@a.test']);
  const set = suspendedAccounts(src, counting);
  await withLogContext({ requestId: 'request-one' }, async () => {
    const checks = await Promise.all(
      Array.from({ length: 500 }, (_, i) => set.anyOf(i % 2 ? '@alice@a.test' : '@bob@a.test')),
    );
    expect(checks.filter(Boolean)).toHaveLength(250);
    expect(await set.anyOf('@alice@a.test')).toBe(true);
  });
  expect(counting.state.reads).toBe(1);
  // A suspension lifted meanwhile: the next request sees it.
  src.state.ids = [];
  await counting.stamps.bump([STAMPS.suspended]);
  await withLogContext({ requestId: 'request-two' }, async () => {
    expect(await set.anyOf('@alice@a.test')).toBe(false);
    expect(await set.anyOf('@alice@a.test')).toBe(false);
  });
  expect(counting.state.reads).toBe(2);
  expect(src.state.reads).toBe(2);
});

test('outside a request every check reads the stamp', async () => {
  const counting = countingStamps();
  const set = suspendedAccounts(source([]), counting);
  await set.ids();
  await set.ids();
  expect(counting.state.reads).toBe(2);
});

test('a failed read is not kept for the rest of the request', async () => {
  const stamps = memoryStampStore();
  let fail = true;
  const src = {
    suspendedIds: () => (fail ? Promise.reject(new Error('db down')) : Promise.resolve(['@alice@a.test'])),
  };
  const set = suspendedAccounts(src, stamps);
  await withLogContext({ requestId: 'request-three' }, async () => {
    await expect(set.ids()).rejects.toThrow('db down');
    fail = false;
    expect(await set.anyOf('@alice@a.test')).toBe(true);
  });
});
