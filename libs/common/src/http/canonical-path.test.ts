import { canonicalPath, splitUrl } from './canonical-path';

test.each([
  ['/', '/'],
  ['/auth/login', '/auth/login'],
  ['/auth/login/', '/auth/login'],
  ['//auth//login//', '/auth/login'],
  ['/auth/%6Cogin', '/auth/login'],
  ['/auth/%6cogin', '/auth/login'],
  ['/auth/./login', '/auth/login'],
  ['/x/../auth/login', '/auth/login'],
  ['/../../auth/login', '/auth/login'],
  ['/%2E%2E/auth/login', '/auth/login'],
  ['/users/%40alice%40social.test', '/users/%40alice%40social.test'],
  ['/users/%2fetc', '/users/%2Fetc'],
  ['/AUTH/LOGIN', '/AUTH/LOGIN'],
  ['/posts/post:abc@social.test', '/posts/post:abc@social.test'],
])('%s → %s', (raw, canonical) => {
  expect(canonicalPath(raw)).toBe(canonical);
  // Canonical paths are fixed points: the services accept exactly these.
  expect(canonicalPath(canonical)).toBe(canonical);
});

test.each(['/posts/%zz', '/posts/%4', 'posts', ''])('%s is not a path', (raw) => {
  expect(canonicalPath(raw)).toBeNull();
});

test('splitUrl keeps the query apart', () => {
  expect(splitUrl('/a/b?x=1&y=/z')).toEqual({ path: '/a/b', query: '?x=1&y=/z' });
  expect(splitUrl('/a')).toEqual({ path: '/a', query: '' });
});
