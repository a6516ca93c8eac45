/** Normalises client audience values (behaviour-notes §2.2) to the stored canonical forms. */
import { BadRequest } from '../errors';

const OBJECT_AUDIENCE = /^(circle|group):[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;
const USER = /^@[a-z0-9_]{2,32}@[a-z0-9.-]+(:\d+)?$/;

/** Canonical `to` for a local write; throws BadRequest naming the field for anything else. */
export function canonicalTo(value: unknown, field: string, domain: string, fallback = '@public'): string {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string') throw new BadRequest(`${field} must be a string`);
  const v = value.trim();
  if (v === 'public' || v === '@public') return '@public';
  if (v === 'server' || v === '@server' || v === domain || v === `@${domain}`) return `@${domain}`;
  if (v === 'none' && field !== 'to') return 'none';
  if (OBJECT_AUDIENCE.test(v) || USER.test(v)) return v;
  throw new BadRequest(`${field} must be @public, @${domain}, a circle or group id, or a user id`);
}
