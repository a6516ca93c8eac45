import { BadRequest } from '../errors';

/** S3's own limit; the disk adapter keeps it so keys stay portable between adapters. */
const MAX_KEY_BYTES = 1024;
// Control characters break S3's XML listings and file names; a backslash is a path separator
// on Windows. Neither has a use in our keys.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/**
 * One key grammar for every adapter: `/`-separated segments, none of them empty, `.` or `..`. That makes
 * a key a safe relative path on disk and keeps S3 and disk interchangeable (a key S3 accepted
 * but disk refused would break a migration between them).
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) {
    throw new BadRequest('Object key must be a non-empty string');
  }
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new BadRequest(`Object key longer than ${MAX_KEY_BYTES} bytes`);
  }
  if (FORBIDDEN.test(key)) throw new BadRequest('Object key contains a control character or a backslash');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadRequest('Object key must be a relative path without empty, "." or ".." segments');
    }
  }
}

/** A prefix may end anywhere (`media/ab` matches `media/abc`), but its directory part obeys the key rules. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  if (FORBIDDEN.test(prefix)) throw new BadRequest('Prefix contains a control character or a backslash');
  const dir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  if (dir !== '') assertValidKey(dir.slice(0, -1));
}

/** S3 lists keys in UTF-8 byte order; JavaScript's `<` compares UTF-16 units, which differs above U+FFFF. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
