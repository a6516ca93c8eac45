import { CLOCK_SKEW_SECONDS, tokenBounds, withinBounds } from './claims';

const NOW = 1_800_000_000;
const HOUR = 3600;
const bounds = tokenBounds({
  DOMAIN: 'social.test',
  publicUrl: 'http://localhost:8080',
  tokenTtlSeconds: 12 * HOUR,
});
const ok = (claims: Record<string, unknown>) => withinBounds(claims, bounds, NOW);

test('the audiences of this server are its issuer URL and its public URL', () => {
  expect(bounds).toEqual({
    maxLifetimeSeconds: 12 * HOUR,
    audiences: ['https://social.test', 'http://localhost:8080'],
  });
});

test('exp is required and at most TOKEN_TTL (plus the skew) ahead', () => {
  expect(ok({})).toBe(false);
  expect(ok({ exp: 'soon' })).toBe(false);
  expect(ok({ exp: 1e300 })).toBe(false);
  expect(ok({ exp: Infinity })).toBe(false);
  expect(ok({ exp: NOW + 12 * HOUR + CLOCK_SKEW_SECONDS })).toBe(true);
  expect(ok({ exp: NOW + 12 * HOUR + CLOCK_SKEW_SECONDS + 1 })).toBe(false);
});

test('iat, when present: not in the future beyond the skew, and at most TOKEN_TTL before exp', () => {
  expect(ok({ iat: NOW + CLOCK_SKEW_SECONDS, exp: NOW + HOUR })).toBe(true);
  expect(ok({ iat: NOW + CLOCK_SKEW_SECONDS + 1, exp: NOW + HOUR })).toBe(false);
  expect(ok({ iat: NOW - HOUR, exp: NOW + 11 * HOUR })).toBe(true);
  expect(ok({ iat: NOW - 2 * HOUR, exp: NOW + 11 * HOUR })).toBe(false);
  expect(ok({ iat: 'now', exp: NOW + HOUR })).toBe(false);
});

test('aud, when present, must name this server', () => {
  expect(ok({ exp: NOW + HOUR, aud: 'https://social.test' })).toBe(true);
  expect(ok({ exp: NOW + HOUR, aud: 'http://localhost:8080' })).toBe(true);
  expect(ok({ exp: NOW + HOUR, aud: ['https://other.test', 'https://social.test'] })).toBe(true);
  expect(ok({ exp: NOW + HOUR, aud: 'https://other.test' })).toBe(false);
  expect(ok({ exp: NOW + HOUR, aud: [] })).toBe(false);
  expect(ok({ exp: NOW + HOUR, aud: 'social.test' })).toBe(false);
});
