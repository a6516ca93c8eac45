/**
 * Where a user's share of a post is kept (ADR 0024): a read of the user's shares of that post
 * (`PostsStore.sharesOf`, one index on both engines), live and undone ones the garbage collector
 * has not purged yet. A new share's id is derived from the sharer, the original and the first
 * generation none of those holds (`post:<hash>@domain`), so two boosts racing read the same
 * shares, derive the same id, and make one post (the second insert is a duplicate); every share
 * has an id (and an ActivityPub `Announce` id) of its own while its predecessors are held.
 */
import { createHash } from 'node:crypto';
import type { PostRecord } from '@agora/common/db';
import type { SocialContext } from '../../../context';

export function shareIdOf(ctx: SocialContext, sharer: string, original: string, generation: number): string {
  const hash = createHash('sha256').update(`${sharer}\n${original}\n${generation}`).digest('hex');
  return `post:${hash.slice(0, 24)}@${ctx.config.DOMAIN}`;
}

export interface HeldShares {
  /** The user's live share of the post, if they have one. */
  live?: PostRecord;
  /** The id a new share takes: the first generation no held share has. */
  freeId: string;
}

/** The user's shares of the post: the live one, and the id the next one takes. */
export async function heldShares(ctx: SocialContext, sharer: string, original: string): Promise<HeldShares> {
  const shares = await ctx.stores.posts.sharesOf(sharer, original);
  const taken = new Set(shares.map((p) => p.id));
  let generation = 0;
  while (taken.has(shareIdOf(ctx, sharer, original, generation))) generation++;
  return {
    live: shares.find((p) => !p.deletedAt),
    freeId: shareIdOf(ctx, sharer, original, generation),
  };
}

/** The user's live share of the post, if they have one. */
export async function liveShare(
  ctx: SocialContext,
  sharer: string,
  original: string,
): Promise<PostRecord | undefined> {
  return (await heldShares(ctx, sharer, original)).live;
}
