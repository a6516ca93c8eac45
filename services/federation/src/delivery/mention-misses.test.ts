import { missCache } from './mention-misses';

describe('missCache', () => {
  test('remembers a handle for the TTL, case-insensitively, then forgets it', () => {
    const cache = missCache(1000, 10);
    cache.add('@Nobody@peer.test', 0);
    expect(cache.has('@nobody@peer.test', 999)).toBe(true);
    expect(cache.has('@nobody@peer.test', 1000)).toBe(false);
    expect(cache.has('@nobody@peer.test', 0)).toBe(false);
  });

  test('holds at most its bound, forgetting the oldest first', () => {
    const cache = missCache(1000, 2);
    cache.add('@a@x.test', 0);
    cache.add('@b@x.test', 1);
    cache.add('@a@x.test', 2); // added again: now the newest
    cache.add('@c@x.test', 3);
    expect(cache.has('@b@x.test', 4)).toBe(false);
    expect(cache.has('@a@x.test', 4)).toBe(true);
    expect(cache.has('@c@x.test', 4)).toBe(true);
  });
});
