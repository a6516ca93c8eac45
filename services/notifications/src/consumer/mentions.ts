/**
 * `@user@<our domain>` mentions in markdown source (behaviour-notes §6.2 `mention`): a handle
 * preceded by the start or a character that cannot be part of a word, an address or a path, so
 * `me@alice@x` or `/x/@alice@x` are not mentions. Remote handles are left to their servers.
 */
import type { NotificationsContext } from '../context';
import type { ObjectInfo } from './objects';
import { mayRead } from './audience';

/** More than this many distinct handles in one text are not all notified (mass pinging). */
export const MAX_MENTIONS = 20;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Distinct local user ids mentioned in `text`, in order of appearance. */
export function mentionedUsers(text: string, domain: string): string[] {
  const re = new RegExp(`(?:^|[^\\w@/])@([a-z0-9_]{2,32})@${escapeRe(domain)}(?![\\w-]|\\.[\\w-])`, 'gi');
  const out = new Set<string>();
  for (const m of text.matchAll(re)) {
    out.add(`@${m[1]!.toLowerCase()}@${domain}`);
    if (out.size >= MAX_MENTIONS) break;
  }
  return [...out];
}

/** The mentioned users who may read the object. */
export async function readersAmong(
  ctx: NotificationsContext,
  obj: ObjectInfo,
  userIds: string[],
): Promise<string[]> {
  const addressed = { to: obj.to, actorId: obj.rootActorId, deletedAt: null };
  const out: string[] = [];
  for (const id of userIds) if (await mayRead(ctx, addressed, id)) out.push(id);
  return out;
}
