/** Token headers of spec 5.2; the first one present is used. */
import type { IncomingHttpHeaders } from 'node:http';

export const TOKEN_HEADERS = [
  'authorization',
  'x-auth-token',
  'x-access-token',
  'x-token',
  'auth-token',
  'x-jwt',
] as const;

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Returns the bearer token of a request, or undefined. */
export function extractToken(headers: IncomingHttpHeaders): string | undefined {
  for (const name of TOKEN_HEADERS) {
    const raw = first(headers[name])?.trim();
    if (!raw) continue;
    if (name === 'authorization') {
      const m = /^(Bearer|Token)\s+(\S+)$/i.exec(raw);
      if (m) return m[2];
      continue;
    }
    return raw;
  }
  return undefined;
}

/** The admin guard of spec 5.3.4 only reads `Authorization: Bearer|Token <jwt>`. */
export function extractAuthorizationToken(headers: IncomingHttpHeaders): string | undefined {
  const raw = first(headers.authorization)?.trim();
  const m = raw ? /^(Bearer|Token)\s+(\S+)$/i.exec(raw) : null;
  return m?.[2];
}
