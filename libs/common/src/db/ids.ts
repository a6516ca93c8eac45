/** Server-minted ids of decisions.md §2. */
import { randomBytes } from 'node:crypto';

export type ObjectKind =
  | 'post'
  | 'reply'
  | 'react'
  | 'circle'
  | 'group'
  | 'page'
  | 'bookmark'
  | 'activity'
  | 'notification'
  | 'flag'
  | 'invite'
  | 'recommendation'
  | 'section'
  | 'file';

/**
 * `<kind>:<24 hex>@<domain>`: the same shape as before, but 96 random bits instead of an ObjectId
 * (time, process and a sequential counter), so ids cannot be walked or guessed (docs/security.md,
 * existence oracles). Order never came from ids: lists sort by their dates.
 */
export function mintId(kind: ObjectKind, domain: string): string {
  return `${kind}:${randomBytes(12).toString('hex')}@${domain}`;
}

export function userId(username: string, domain: string): string {
  return `@${username}@${domain}`;
}

export const USERNAME_RE = /^[a-z0-9_]{2,32}$/;

/**
 * Names that read as the server or its staff speaking (Mastodon's and GoToSocial's lists, plus
 * RFC 2142 mailbox names): nobody registers them. The bootstrap admin is exempt.
 */
const RESERVED_USERNAMES = new Set([
  'abuse',
  'admin',
  'administrator',
  'admins',
  'agora',
  'api',
  'help',
  'hostmaster',
  'info',
  'instance',
  'mod',
  'moderator',
  'moderators',
  'mods',
  'no_reply',
  'noreply',
  'nobody',
  'official',
  'postmaster',
  'public',
  'root',
  'security',
  'server',
  'staff',
  'support',
  'sysadmin',
  'system',
  'webmaster',
  'www',
]);

/** Reserved: the list above, and the server's own name (`social` and `social_test` for social.test). */
export function isReservedUsername(username: string, domain: string): boolean {
  const name = username.toLowerCase();
  const host = domain.toLowerCase().replace(/:\d+$/, '');
  return (
    RESERVED_USERNAMES.has(name) || name === host.split('.')[0] || name === host.replace(/[^a-z0-9_]/g, '_')
  );
}

export interface ParsedId {
  type: 'User' | 'Server' | 'Object' | 'URL' | 'Unknown';
  kind?: string;
  domain?: string;
  username?: string;
}

export function parseId(id: string): ParsedId {
  if (/^https?:\/\//i.test(id)) {
    try {
      return { type: 'URL', domain: new URL(id).hostname };
    } catch {
      return { type: 'Unknown' };
    }
  }
  let m = /^@([a-z0-9_]{1,64})@([^@/\s]+)$/i.exec(id);
  if (m) return { type: 'User', username: m[1]!.toLowerCase(), domain: m[2]!.toLowerCase() };
  m = /^@([^@/\s]+)$/.exec(id);
  if (m) return { type: 'Server', domain: m[1]!.toLowerCase() };
  m = /^([a-z][a-z0-9_-]*):[^@\s]+@([^@/\s]+)$/.exec(id);
  if (m) return { type: 'Object', kind: m[1]!, domain: m[2]!.toLowerCase() };
  return { type: 'Unknown' };
}
