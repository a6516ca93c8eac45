import { configSchema, type Config } from './schema';
import { ConfigError } from '../errors';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export function parseBytes(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(v.trim());
  if (!m) throw new Error(`bad size ${v}`);
  return Math.floor(Number(m[1]) * (UNITS[(m[2] ?? 'b').toLowerCase()] ?? 1));
}

export function parseDuration(v: string): number {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(v.trim());
  if (!m) throw new Error(`bad duration ${v}`);
  return Number(m[1]) * (SECONDS[m[2] ?? 's'] ?? 1);
}

/**
 * Reads and validates the configuration once. A bad value throws a ConfigError whose message
 * names every offending variable; entry points print it and exit non-zero.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<string, string>> = {},
): Config {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const raw = overrides[key] ?? env[key];
    input[key] = raw === '' && key !== 'CORS_ORIGIN' && key !== 'SERVICE_URLS' ? undefined : raw;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    publicUrl: (c.PUBLIC_URL ?? `https://${c.DOMAIN}`).replace(/\/+$/, ''),
    jsonLimitBytes: parseBytes(c.JSON_LIMIT),
    tokenTtlSeconds: parseDuration(c.TOKEN_TTL),
    hmacSecret: c.JWT_SECRET ?? c.JWT_KEY,
    corsOrigins: c.CORS_ORIGIN.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    federationHostMap: Object.fromEntries(
      c.FEDERATION_HOST_MAP.split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => pair.split('=').map((x) => x.trim().toLowerCase()) as [string, string]),
    ),
  };
}
