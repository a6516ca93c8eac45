/**
 * One-time e-mail tokens (verification, password reset): 32 random bytes sent to the user, only
 * their SHA-256 stored (a database leak must not hand out working links), single use (cleared
 * by the same atomic update that consumes them).
 */
import { createHash, randomBytes } from 'node:crypto';

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

const TOKEN_RE = /^[a-f0-9]{64}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new token: the clear value for the e-mail, the hash and expiry for the database. */
export function mintEmailToken(ttlMs: number): { token: string; hash: string; expires: Date } {
  const token = randomBytes(32).toString('hex');
  return { token, hash: hashToken(token), expires: new Date(Date.now() + ttlMs) };
}

/** Whether a client value can be one of our tokens at all (saves a query, refuses operators). */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_RE.test(value);
}
