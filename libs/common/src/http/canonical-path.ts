/**
 * The one canonical spelling of a request path (docs/security.md, "One path"). The gateway
 * rewrites every request to it before any edge rule (rate limits, guards, de-duplication) looks
 * at the path, and the services answer 404 to any other spelling, so the edge and the services
 * can never disagree on which route a request is:
 *
 * - `//` runs collapse to one `/`;
 * - percent-escapes of unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`) are
 *   decoded and every other escape is written with upper-case hex (§6.2.2.1/§6.2.2.2);
 *   a malformed escape makes the path invalid (null);
 * - `.` and `..` segments are removed (§5.2.4), never climbing above the root;
 * - a trailing `/` is dropped (except for the root itself).
 *
 * Case is kept: routes are case-sensitive, so `/AUTH/LOGIN` is simply not `/auth/login` (404),
 * while path parameters (ids, tokens) keep their case.
 */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

export function canonicalPath(path: string): string | null {
  if (!path.startsWith('/')) return null;
  let decoded = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c !== '%') {
      decoded += c;
      continue;
    }
    const hex = path.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
    const ch = String.fromCharCode(parseInt(hex, 16));
    decoded += UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
    i += 2;
  }
  const out: string[] = [];
  for (const seg of decoded.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** Splits a request URL into its path and its query string (with the `?`, or ''). */
export function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q) };
}
