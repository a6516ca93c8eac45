import { extractAuthorizationToken, extractToken } from './extract';

test('the six headers of spec 5.2', () => {
  expect(extractToken({ authorization: 'Bearer abc' })).toBe('abc');
  expect(extractToken({ authorization: 'Token abc' })).toBe('abc');
  expect(extractToken({ authorization: 'Basic abc' })).toBeUndefined();
  for (const h of ['x-auth-token', 'x-access-token', 'x-token', 'auth-token', 'x-jwt'])
    expect(extractToken({ [h]: 'tok' })).toBe('tok');
  expect(extractToken({})).toBeUndefined();
});

test('the admin guard reads Authorization only', () => {
  expect(extractAuthorizationToken({ 'x-auth-token': 'tok' })).toBeUndefined();
  expect(extractAuthorizationToken({ authorization: 'Bearer tok' })).toBe('tok');
});
