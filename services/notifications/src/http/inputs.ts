/**
 * Query and path inputs of the notification routes. The service parses queries with the
 * extended parser, so `types[$ne]=x` arrives as an object: only strings (or repeated strings)
 * are accepted, and every type must be one of the known ones.
 */
import { userId as userIdOf, parseId, NOTIFICATION_TYPES, type NotificationType } from '@agora/common/db';
import { BadRequest } from '@agora/common/errors';

const MAX_TYPES_LENGTH = 500;

/** `types=reply,react` (or `types=reply&types=react`) → the listed types; absent → undefined. */
export function parseTypes(raw: unknown): NotificationType[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const parts = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : null;
  if (!parts || !parts.every((p): p is string => typeof p === 'string'))
    throw new BadRequest('types: must be a comma-separated list of notification types');
  const joined = parts.join(',');
  if (joined.length > MAX_TYPES_LENGTH) throw new BadRequest('types: too long');
  const names = [
    ...new Set(
      joined
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  for (const n of names)
    if (!(NOTIFICATION_TYPES as readonly string[]).includes(n))
      throw new BadRequest(
        `types: unknown notification type '${n}' (one of ${NOTIFICATION_TYPES.join(', ')})`,
      );
  return names.length ? (names as NotificationType[]) : undefined;
}

/** `unread=true` lists unread ones only; `false` or absent lists all. */
export function parseUnread(raw: unknown): boolean {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new BadRequest('unread: must be true or false');
}

/** Notification ids are minted as `notification:<24 hex>@<domain>`; anything else cannot exist. */
export function isNotificationId(id: string): boolean {
  return /^notification:[0-9a-f]{24}@[^@/\s]+$/.test(id);
}

/** The user a `/users/:id/...` path names: a full `@name@domain`, or a bare local username. */
export function pathUserId(raw: string, domain: string): string | null {
  const id = raw.includes('@') ? raw : `@${raw}@${domain}`;
  const p = parseId(id);
  return p.type === 'User' && p.username && p.domain ? userIdOf(p.username, p.domain) : null;
}
