import { ConfigError } from '../errors';
import { loadConfig, parseBytes, parseDuration } from './load';

describe('loadConfig', () => {
  test('defaults: embedded mode, 2mb JSON limit, 30 day tokens, https public URL', () => {
    const c = loadConfig({});
    expect(c.MONGO_URL).toBeUndefined();
    expect(c.jsonLimitBytes).toBe(2 * 1024 * 1024);
    expect(c.tokenTtlSeconds).toBe(30 * 86400);
    expect(c.publicUrl).toBe('https://localhost');
    expect(c.RATE_LIMITING_ENABLED).toBe(true);
    expect(c.hmacSecret).toBeUndefined();
  });

  test('a bad value stops start-up with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MONGO_URL: 'http://x' })).toThrow(/MONGO_URL/);
    expect(() => loadConfig({ RATE_LIMITING_ENABLED: 'maybe' })).toThrow(/RATE_LIMITING_ENABLED/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ FEDERATION_HOST_MAP: 'peer.test' })).toThrow(/FEDERATION_HOST_MAP/);
    expect(() => loadConfig({ FEDERATION_HOST_MAP: 'peer.test=http://x' })).toThrow(/FEDERATION_HOST_MAP/);
  });

  test('the live stream heartbeat must be below the upstream timeout', () => {
    expect(loadConfig({}).UPSTREAM_TIMEOUT_SECONDS).toBe(30);
    expect(
      loadConfig({ UPSTREAM_TIMEOUT_SECONDS: '1.5', LIVE_HEARTBEAT_SECONDS: '1' }).UPSTREAM_TIMEOUT_SECONDS,
    ).toBe(1.5);
    expect(() => loadConfig({ LIVE_HEARTBEAT_SECONDS: '30' })).toThrow(
      /LIVE_HEARTBEAT_SECONDS: must be below UPSTREAM_TIMEOUT_SECONDS \(30\)/,
    );
    expect(() => loadConfig({ UPSTREAM_TIMEOUT_SECONDS: '10', LIVE_HEARTBEAT_SECONDS: '15' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ UPSTREAM_TIMEOUT_SECONDS: '0' })).toThrow(/UPSTREAM_TIMEOUT_SECONDS/);
  });

  test('derived values', () => {
    const c = loadConfig({
      DOMAIN: 'social.example',
      JWT_KEY: 'k'.repeat(20),
      CORS_ORIGIN: 'https://a.example, https://b.example',
      JSON_LIMIT: '512kb',
      RATE_LIMITING_ENABLED: 'false',
      FEDERATION_HOST_MAP: 'Peer.test=127.0.0.1:4001, other.test:8443=127.0.0.2:4002',
    });
    expect(c.federationHostMap).toEqual({
      'peer.test': '127.0.0.1:4001',
      'other.test:8443': '127.0.0.2:4002',
    });
    expect(c.publicUrl).toBe('https://social.example');
    expect(c.hmacSecret).toBe('k'.repeat(20));
    expect(c.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.jsonLimitBytes).toBe(512 * 1024);
    expect(c.RATE_LIMITING_ENABLED).toBe(false);
  });

  test('size and duration parsing', () => {
    expect(parseBytes('1mb')).toBe(1048576);
    expect(parseBytes('100')).toBe(100);
    expect(parseDuration('12h')).toBe(43200);
    expect(() => parseDuration('soon')).toThrow();
  });
});
