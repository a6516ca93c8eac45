/**
 * The fields of a user record no API returns. Kept apart from the users store so the HTTP layer
 * (`http/authenticate.ts`, which the gateway loads) uses it without loading the data layer.
 */
const SECRET_FIELDS = [
  'password',
  'emailVerificationToken',
  'emailVerificationExpires',
  'passwordResetToken',
  'passwordResetExpires',
  '_id',
  '__v',
] as const;

/** A copy of a user document without its secrets. */
export function stripSecrets<T extends Record<string, unknown>>(doc: T): T {
  const out = { ...doc };
  for (const f of SECRET_FIELDS) delete (out as Record<string, unknown>)[f];
  return out;
}
