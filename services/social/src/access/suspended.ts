/**
 * Suspended accounts as the social service sees them (ADR 0028, docs/security.md "Deleted
 * accounts"): an admin's soft delete keeps the account's content for the restore, and while it
 * lasts no one else reads any of it here. Each kind of read asks here once: an object by id
 * (access/objects.ts), timelines (the authors every viewer skips, timelines/query.ts), the list
 * reads that skip authors (local posts, group posts, thread replies), Discover and search's
 * profiles. One cached set per context, read again when its stamp moves: the users store moves it,
 * and so does the inbox when another server suspends or restores one of its actors (their copies
 * here are hidden the same way, inbound/actors.ts).
 */
import { suspendedAccounts, suspendedSource, type SuspendedAccounts } from '@agora/common/cache';
import type { SocialContext } from '../context';

const SUSPENDED = new WeakMap<SocialContext, SuspendedAccounts>();

export function suspendedOf(ctx: SocialContext): SuspendedAccounts {
  let set = SUSPENDED.get(ctx);
  if (!set) {
    set = suspendedAccounts(suspendedSource(ctx.stores), ctx.stamps);
    SUSPENDED.set(ctx, set);
  }
  return set;
}

/** The authors no read of this request may show (the suspended accounts). */
export function hiddenAuthors(ctx: SocialContext): Promise<ReadonlySet<string>> {
  return suspendedOf(ctx).ids();
}
