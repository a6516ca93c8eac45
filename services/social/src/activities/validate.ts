/** Handler input validation: zod, and a 400 whose message names the offending field. */
import type { AuthUser } from '@agora/common/http';

export { parseInput as parse, idString } from '@agora/common/validation';
export { httpUrl, mediaRef } from '@agora/common/validation';

export { markdownSource } from '@agora/common/content';

/** The denormalised author reference stored on objects. */
export function actorRef(user: AuthUser) {
  const profile = (user.record.profile ?? {}) as { name?: string; icon?: string };
  return {
    id: user.id,
    type: 'Person',
    name: profile.name ?? user.username,
    icon: profile.icon ?? '',
    url: typeof user.record.url === 'string' ? user.record.url : '',
    server: typeof user.record.server === 'string' ? user.record.server : '',
  };
}

/** Removes storage internals from a lean document before it is returned. */
export function clean<T extends Record<string, unknown>>(
  doc: T | null | undefined,
): Record<string, unknown> | null {
  if (!doc) return null;
  const { _id, __v, password, privateKey, ...rest } = doc as Record<string, unknown>;
  void _id;
  void __v;
  void password;
  void privateKey;
  return rest;
}
