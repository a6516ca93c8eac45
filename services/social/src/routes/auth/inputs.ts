/** Client values of the auth routes: strings only, so no operator object reaches a query. */
import { BadRequest } from '@agora/common/errors';

/** A required string field; a missing or empty value is `missing`, any non-string a 400 too. */
export function stringField(value: unknown, field: string, missing = `${field} is required`): string {
  if (value === undefined || value === null || value === '') throw new BadRequest(missing);
  if (typeof value !== 'string') throw new BadRequest(`${field} must be a string`);
  return value;
}

/** An e-mail address as stored (the schema lower-cases and trims), for exact matches. */
export function emailField(value: unknown): string {
  const email = stringField(value, 'email').trim().toLowerCase();
  if (email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email))
    throw new BadRequest('email must be an e-mail address');
  return email;
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

export function newPassword(value: unknown): string {
  const password = stringField(value, 'password');
  if (password.length < PASSWORD_MIN)
    throw new BadRequest(`Password must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX)
    throw new BadRequest(`Password must be at most ${PASSWORD_MAX} characters`);
  return password;
}
